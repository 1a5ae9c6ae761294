// The guides for the docs site: docs/README.md lists them in reading order ("- [Title](file.md):
// what it covers"); every other docs/*.md must be on that list. Each guide becomes
// guides/<name>.html. A guide may link to another guide (with or without #anchor), to an anchor
// of its own, or into the generated reference (../generated/docs/...); anything else is refused
// at generate time, so every link on the site stays inside it.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { renderMarkdown, type MarkdownHeading } from "./docs-markdown.js";

export interface Guide {
  /** File name without .md ("dev-chain"). */
  name: string;
  /** Site path ("guides/dev-chain.html"). */
  page: string;
  /** The short name the index gives it (sidebar). */
  label: string;
  /** Its own # heading (page title). */
  title: string;
  /** What it covers, from the index line. */
  covers: string;
  lead: string;
  headings: MarkdownHeading[];
  html: string;
}

export const GUIDES_INDEX = "README.md";
const REFERENCE_PREFIX = "../generated/docs/";

export const guidePage = (name: string) => `guides/${name}.html`;

/** The index's entries, in order: [file, title, covers]. */
function indexEntries(source: string, dir: string): [string, string, string][] {
  const entries: [string, string, string][] = [];
  for (const line of source.split("\n")) {
    const item = /^- \[([^\]]+)\]\(([\w.-]+\.md)\):\s*(.+)$/.exec(line);
    if (item) entries.push([item[2]!, item[1]!, item[3]!.trim()]);
    else if (line.startsWith("- ")) throw new Error(`${dir}/${GUIDES_INDEX}: a list item that is not "- [Title](file.md): what it covers": ${line}`);
  }
  return entries;
}

/** The guides of `dir` (a docs/ folder), or [] when there is none. */
export function loadGuides(dir: string): Guide[] {
  if (!existsSync(path.join(dir, GUIDES_INDEX))) return [];
  const entries = indexEntries(readFileSync(path.join(dir, GUIDES_INDEX), "utf8"), dir);
  const listed = new Set(entries.map(([file]) => file));
  const files = readdirSync(dir).filter((f) => f.endsWith(".md") && f !== GUIDES_INDEX);
  const unlisted = files.filter((f) => !listed.has(f));
  if (unlisted.length > 0) throw new Error(`${dir}/${GUIDES_INDEX} does not list ${unlisted.join(", ")}`);
  const missing = entries.filter(([file]) => !files.includes(file)).map(([file]) => file);
  if (missing.length > 0) throw new Error(`${dir}/${GUIDES_INDEX} lists ${missing.join(", ")}, which do not exist`);
  const names = new Set(entries.map(([file]) => file.replace(/\.md$/, "")));
  const link = (target: string): string => {
    if (target.startsWith("#")) return target;
    const [file = "", fragment] = target.split("#", 2) as [string, string | undefined];
    const hash = fragment === undefined ? "" : `#${fragment}`;
    if (file === GUIDES_INDEX) return `../index.html${hash || "#guides"}`;
    if (file.endsWith(".md") && names.has(file.slice(0, -3))) return `${file.slice(0, -3)}.html${hash}`;
    if (file.startsWith(REFERENCE_PREFIX)) return `../${file.slice(REFERENCE_PREFIX.length)}${hash}`;
    throw new Error(`link to ${target}: a guide links to another guide, an #anchor, or ${REFERENCE_PREFIX}...`);
  };
  return entries.map(([file, title, covers]) => {
    const name = file.replace(/\.md$/, "");
    const rendered = renderMarkdown(readFileSync(path.join(dir, file), "utf8"), link, `${path.basename(dir)}/${file}`);
    return { name, page: guidePage(name), label: title, title: rendered.title, covers, lead: rendered.lead, headings: rendered.headings, html: rendered.html };
  });
}
