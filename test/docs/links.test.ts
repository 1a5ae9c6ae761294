// A link checker without a browser: every internal link of the generated site (generated/docs)
// names an existing file and, for a #fragment, an element id in it, and no page links out of the
// site; every relative link of the Markdown a reader opens on GitHub (README.md, docs/*.md,
// bench/notes/*.md) names an existing file and, for a #fragment into Markdown, a heading there
// (ids as GitHub makes them). The browser test (site.test.ts) checks the same links as rendered.

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, extname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { githubSlug, plainText } from "../../generators/docs-markdown.js";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const siteDir = join(repoRoot, "generated", "docs");

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)]));
}

const decode = (text: string) => text.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** Element ids and link targets of one generated page (the generator writes double-quoted attributes). */
function pageFacts(file: string): { ids: Set<string>; hrefs: string[] } {
  const html = readFileSync(file, "utf8");
  const ids = new Set([...html.matchAll(/\sid="([^"]*)"/g)].map((m) => decode(m[1]!)));
  const hrefs = [...html.matchAll(/\shref="([^"]*)"/g)].map((m) => decode(m[1]!));
  return { ids, hrefs };
}

/** Broken internal links of the site, as "page: href → why". */
export function brokenSiteLinks(dir: string): { broken: string[]; checked: number } {
  const pages = listFiles(dir).filter((f) => f.endsWith(".html"));
  const facts = new Map(pages.map((file) => [resolve(file), pageFacts(file)]));
  const broken: string[] = [];
  let checked = 0;
  for (const [file, { hrefs }] of facts) {
    const from = relative(dir, file).split(sep).join("/");
    for (const href of hrefs) {
      checked++;
      if (/^[a-z][a-z0-9+.-]*:/i.test(href)) {
        if (!href.startsWith("data:")) broken.push(`${from}: ${href} leaves the site`);
        continue;
      }
      const [path = "", fragment = ""] = href.split("#", 2) as [string, string?];
      const target = path === "" ? file : resolve(dirname(file), decodeURIComponent(path));
      if (!target.startsWith(resolve(dir) + sep) || !existsSync(target)) {
        broken.push(`${from}: ${href} → no such file`);
        continue;
      }
      if (fragment !== "" && extname(target) === ".html" && !facts.get(target)?.ids.has(decodeURIComponent(fragment))) {
        broken.push(`${from}: ${href} → no element #${fragment}`);
      }
    }
  }
  return { broken, checked };
}

/** The heading ids GitHub gives a Markdown file. */
function markdownAnchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const ids = new Set<string>();
  let inCode = false;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.startsWith("```")) inCode = !inCode;
    const heading = !inCode && /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) ids.add(githubSlug(plainText(heading[1]!), seen));
  }
  return ids;
}

/** Relative links of Markdown files (outside code blocks and code spans), as [line, target]. */
function markdownLinks(file: string): [number, string][] {
  const links: [number, string][] = [];
  let inCode = false;
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, index) => {
      if (line.startsWith("```")) inCode = !inCode;
      if (inCode) return;
      for (const m of line.replace(/`[^`]*`/g, "").matchAll(/\]\(([^)\s]+)\)/g)) links.push([index + 1, m[1]!]);
    });
  return links;
}

const markdownFiles = [
  "README.md",
  ...readdirSync(join(repoRoot, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`),
  ...readdirSync(join(repoRoot, "bench", "notes")).filter((f) => f.endsWith(".md")).map((f) => `bench/notes/${f}`),
];

describe("link checker", () => {
  it("finds every internal link of the generated site resolving, and none leaving it", () => {
    const { broken, checked } = brokenSiteLinks(siteDir);
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(1000);
  });

  it("reports a missing page, a missing anchor and an external link (on a copy with three broken links)", async () => {
    const { mkdtempSync, writeFileSync, rmSync, mkdirSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "shardkit-links-"));
    try {
      mkdirSync(join(dir, "rpc"));
      writeFileSync(join(dir, "index.html"), '<a href="rpc/a.html#x">a</a><a href="rpc/b.html">b</a><a href="https://example.com/">c</a><a href="#top">d</a><h1 id="top">t</h1>');
      writeFileSync(join(dir, "rpc", "a.html"), '<a href="../index.html#top">back</a><p id="y">no x here</p>');
      expect(brokenSiteLinks(dir).broken.sort()).toEqual([
        "index.html: https://example.com/ leaves the site",
        "index.html: rpc/a.html#x → no element #x",
        "index.html: rpc/b.html → no such file",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("finds every relative link of the README, the guides and the bench notes resolving, anchors included", () => {
    const broken: string[] = [];
    let checked = 0;
    for (const file of markdownFiles) {
      for (const [line, target] of markdownLinks(join(repoRoot, file))) {
        if (/^https?:/.test(target)) continue;
        checked++;
        const [path = "", fragment = ""] = target.split("#", 2) as [string, string?];
        const resolved = path === "" ? join(repoRoot, file) : resolve(dirname(join(repoRoot, file)), path);
        if (!existsSync(resolved)) {
          broken.push(`${file}:${line}: ${target} → no such file`);
          continue;
        }
        if (fragment === "") continue;
        if (resolved.endsWith(".md") && statSync(resolved).isFile() && !markdownAnchors(resolved).has(fragment)) {
          broken.push(`${file}:${line}: ${target} → no heading #${fragment}`);
        }
        if (resolved.endsWith(".html") && !pageFacts(resolved).ids.has(fragment)) broken.push(`${file}:${line}: ${target} → no element #${fragment}`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it("the README lists every guide of docs/README.md, so a new guide is not left out", () => {
    const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
    const guides = [...readFileSync(join(repoRoot, "docs", "README.md"), "utf8").matchAll(/^- \[[^\]]+\]\(([\w.-]+\.md)\)/gm)].map((m) => m[1]!);
    expect(guides.length).toBeGreaterThanOrEqual(10);
    expect(guides.filter((g) => !readme.includes(`(docs/${g})`))).toEqual([]);
  });
});
