import { readFileSync } from "node:fs";

export interface CodeBlock {
  /** The info string after the opening fence ("ts", "sh", "" ...). */
  lang: string;
  code: string;
  /** 1-based line of the opening fence, for messages. */
  line: number;
}

/** The fenced code blocks of a Markdown file, in order. */
export function codeBlocks(markdownFile: string): CodeBlock[] {
  const lines = readFileSync(markdownFile, "utf8").split("\n");
  const blocks: CodeBlock[] = [];
  let open: { lang: string; line: number; body: string[] } | undefined;
  lines.forEach((text, index) => {
    const fence = /^```(\S*)\s*$/.exec(text);
    if (open === undefined) {
      if (fence) open = { lang: fence[1] ?? "", line: index + 1, body: [] };
    } else if (text.startsWith("```")) {
      blocks.push({ lang: open.lang, code: open.body.join("\n"), line: open.line });
      open = undefined;
    } else {
      open.body.push(text);
    }
  });
  if (open !== undefined) throw new Error(`${markdownFile}: code block at line ${open.line} is never closed`);
  return blocks;
}

/** A shell block every command of which is a curl call (comments and continuation lines aside). */
export function isCurlOnly(block: CodeBlock): boolean {
  if (block.lang !== "sh") return false;
  const starts = block.code
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.trim().startsWith("#") && !/^\s/.test(line) && !/^\s*"/.test(line));
  return starts.length > 0 && starts.every((line) => /^curl\s/.test(line));
}
