// The guides (docs/*.md) as HTML for the docs site: the Markdown the guides use, no more.
// Headings (ids as GitHub makes them, so a `guide.md#section` link works on GitHub and on the
// site), paragraphs, "- " lists (continuation lines indented), pipe tables, fenced code, and
// inline `code`, **bold**, *emphasis* and [links](target). Anything else is text, escaped. Links
// go through `link`, which decides where a guide's link points on the site (or refuses it).

import { escapeHtml } from "./templates.js";

export interface MarkdownHeading {
  level: number;
  id: string;
  /** The heading as plain text (no markup). */
  text: string;
}

export interface RenderedMarkdown {
  html: string;
  /** The first heading's text (the page title). */
  title: string;
  /** The first paragraph as plain text (index and search). */
  lead: string;
  headings: MarkdownHeading[];
}

/** Rewrites a link target written in a guide to its href on the site; throws on one it cannot place. */
export type LinkRewriter = (target: string) => string;

/** The id GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens, -1, -2 for repeats. */
export function githubSlug(text: string, seen: Map<string, number>): string {
  const base = text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
  const count = seen.get(base) ?? 0;
  seen.set(base, count + 1);
  return count === 0 ? base : `${base}-${count}`;
}

/** Inline markup → plain text (for ids, titles and the search index). */
export function plainText(markdown: string): string {
  return markdown
    .replace(/\[([^\]]+)\]\([^)]+\)/g, "$1")
    .replace(/`([^`]+)`/g, "$1")
    .replace(/\*\*([^*]+)\*\*/g, "$1")
    .replace(/\*([^*\s][^*]*)\*/g, "$1")
    .replace(/\\\|/g, "|");
}

/** Inline Markdown → HTML. Code spans are cut out first, so nothing inside them is markup. */
function inline(text: string, link: LinkRewriter): string {
  const spans: string[] = [];
  const held = text.replace(/`([^`]+)`/g, (_match, code: string) => {
    spans.push(`<code>${escapeHtml(code)}</code>`);
    return `\u0000${spans.length - 1}\u0000`;
  });
  return escapeHtml(held)
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_match, label: string, target: string) => `<a href="${escapeHtml(link(target.replace(/&amp;/g, "&")))}">${label}</a>`)
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
    .replace(/(^|[\s(])\*([^*\s][^*]*)\*/g, "$1<em>$2</em>")
    .replace(/\u0000(\d+)\u0000/g, (_match, index: string) => spans[Number(index)]!);
}

/** Splits a table row at unescaped pipes outside code spans. */
function cells(row: string): string[] {
  const out: string[] = [];
  let current = "";
  let inCode = false;
  const body = row.trim().replace(/^\|/, "").replace(/\|$/, "");
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char === "\\" && body[i + 1] === "|") {
      current += "|";
      i++;
    } else if (char === "`") {
      inCode = !inCode;
      current += char;
    } else if (char === "|" && !inCode) {
      out.push(current.trim());
      current = "";
    } else {
      current += char;
    }
  }
  out.push(current.trim());
  return out;
}

const isTableRule = (line: string) => /^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line);

/** Renders one guide. `file` names it in error messages. */
export function renderMarkdown(source: string, link: LinkRewriter, file: string): RenderedMarkdown {
  const lines = source.replace(/\r\n/g, "\n").split("\n");
  const out: string[] = [];
  const headings: MarkdownHeading[] = [];
  const seen = new Map<string, number>();
  let title = "";
  let lead = "";
  let i = 0;
  /** The line the block being rendered starts at (0-based), for messages. */
  let blockStart = 0;
  const fail = (message: string): never => {
    throw new Error(`${file}:${blockStart + 1}: ${message}`);
  };
  const at = (target: string) => {
    try {
      return link(target);
    } catch (error) {
      return fail((error as Error).message);
    }
  };
  while (i < lines.length) {
    const line = lines[i]!;
    blockStart = i;
    if (line.trim() === "") {
      i++;
      continue;
    }
    const fence = /^```(\S*)\s*$/.exec(line);
    if (fence) {
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i]!.startsWith("```"); i++) body.push(lines[i]!);
      if (i >= lines.length) fail("code block never closed");
      i++;
      const lang = fence[1] ?? "";
      out.push(`<pre class="code"${lang ? ` data-lang="${escapeHtml(lang)}"` : ""}><code>${escapeHtml(body.join("\n"))}</code></pre>`);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = heading[1]!.length;
      const text = plainText(heading[2]!);
      const id = githubSlug(text, seen);
      headings.push({ level, id, text });
      if (title === "") title = text;
      out.push(`<h${level} id="${escapeHtml(id)}"><a class="anchor" href="#${escapeHtml(id)}" aria-label="link to this section">#</a>${inline(heading[2]!, at)}</h${level}>`);
      i++;
      continue;
    }
    if (line.trimStart().startsWith("|") && i + 1 < lines.length && isTableRule(lines[i + 1]!)) {
      const head = cells(line);
      i += 2;
      const rows: string[][] = [];
      for (; i < lines.length && lines[i]!.trimStart().startsWith("|"); i++) rows.push(cells(lines[i]!));
      out.push(
        `<div class="table"><table><thead><tr>${head.map((c) => `<th>${inline(c, at)}</th>`).join("")}</tr></thead><tbody>${rows
          .map((row) => `<tr>${row.map((c) => `<td>${inline(c, at)}</td>`).join("")}</tr>`)
          .join("\n")}</tbody></table></div>`,
      );
      continue;
    }
    if (/^- /.test(line)) {
      const items: string[] = [];
      for (; i < lines.length; i++) {
        const item = lines[i]!;
        if (/^- /.test(item)) items.push(item.slice(2));
        else if (/^\s+\S/.test(item) && items.length > 0) items[items.length - 1] += ` ${item.trim()}`;
        else break;
      }
      out.push(`<ul>${items.map((item) => `<li>${inline(item, at)}</li>`).join("\n")}</ul>`);
      continue;
    }
    const paragraph: string[] = [];
    for (; i < lines.length; i++) {
      const text = lines[i]!;
      if (text.trim() === "" || /^```/.test(text) || /^#{1,6}\s/.test(text) || /^- /.test(text)) break;
      if (text.trimStart().startsWith("|") && i + 1 < lines.length && isTableRule(lines[i + 1]!)) break;
      paragraph.push(text.trim());
    }
    const joined = paragraph.join(" ");
    if (lead === "") lead = plainText(joined);
    out.push(`<p>${inline(joined, at)}</p>`);
  }
  if (title === "" || !out[0]!.startsWith("<h1 ")) throw new Error(`${file}: a guide starts with a # heading (its title)`);
  return { html: out.join("\n"), title, lead, headings };
}
