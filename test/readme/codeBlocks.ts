import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export interface CodeBlock {
  /** The info string after the opening fence ("ts", "sh", "text" ...). */
  lang: string;
  code: string;
  /** 1-based line of the opening fence, for messages. */
  line: number;
}

/** A code block of one of the documentation files, with that file (relative to the repository). */
export interface DocBlock extends CodeBlock {
  file: string;
}

const root = fileURLToPath(new URL("../../", import.meta.url));

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

/** The documentation a user reads: the README, the guides in docs/ and each workspace package's README (relative paths, sorted). */
export function docFiles(): string[] {
  const guides = readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`);
  const packages = readdirSync(join(root, "packages"))
    .sort()
    .map((name) => `packages/${name}/README.md`);
  return ["README.md", ...guides, ...packages];
}

/** Every code block of the README and the guides. */
export function docBlocks(): DocBlock[] {
  return docFiles().flatMap((file) => codeBlocks(join(root, file)).map((block) => ({ ...block, file })));
}

/** The one block of the docs that `claim` matches (fails when none or several do). */
export function docBlock(claim: (block: DocBlock) => boolean): DocBlock {
  const found = docBlocks().filter(claim);
  if (found.length !== 1) throw new Error(`expected one documentation block, found ${found.length}: ${found.map(where).join(", ")}`);
  return found[0]!;
}

/** "docs/dev-chain.md:73", for messages and test names. */
export function where(block: DocBlock): string {
  return `${block.file}:${block.line}`;
}

/** A shell block every command of which is a curl call (comments and continuation lines aside). */
export function isCurlOnly(block: CodeBlock): boolean {
  if (block.lang !== "sh") return false;
  const starts = block.code
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.trim().startsWith("#") && !/^\s/.test(line) && !/^\s*"/.test(line));
  return starts.length > 0 && starts.every((line) => /^curl\s/.test(line));
}

const ts = (block: CodeBlock, text: string) => block.lang === "ts" && block.code.includes(text);
const sh = (block: CodeBlock, text: string) => block.lang === "sh" && block.code.includes(text);

/**
 * Which test runs each kind of documentation block. The runners find their blocks with these
 * predicates, and test/readme/allBlocksRun.test.ts fails on a block (other than `text`: output,
 * diagrams, usage synopses) that none of them claims, so a new example cannot go untested.
 */
export const blockRunners = {
  /** `npm ci && npm start`, `npm test`: the commands .ci/run itself runs (checked there). */
  setup: { test: "test/readme/allBlocksRun.test.ts", claims: (b: CodeBlock) => sh(b, "npm ci && npm start") },
  curl: { test: "test/readme/readmeExamples.test.ts", claims: isCurlOnly },
  shardkitClient: { test: "test/readme/readmeExamples.test.ts", claims: (b: CodeBlock) => ts(b, 'from "shardkit/client"') },
  openapiFetch: { test: "test/readme/readmeExamples.test.ts", claims: (b: CodeBlock) => ts(b, 'from "openapi-fetch"') },
  keysFile: { test: "test/readme/readmeExamples.test.ts", claims: (b: CodeBlock) => sh(b, "shardkit keys add --file") },
  lightClient: { test: "test/readme/readmeExamples.test.ts", claims: (b: CodeBlock) => ts(b, 'from "shardkit/proof"') },
  sandbox: { test: "test/readme/sandboxExamples.test.ts", claims: (b: CodeBlock) => ts(b, '"sandbox_patch_state"') && !b.code.includes('from "near-api-js"') },
  nearWorkspaces: { test: "test/sandbox/docsExamples.test.ts", claims: (b: CodeBlock) => sh(b, "shardkit sandbox-path") || ts(b, 'from "near-workspaces"') },
  nearApiJs: { test: "test/readme/readmeExamples.test.ts", claims: (b: CodeBlock) => ts(b, 'from "@near-js/accounts"') && !b.code.includes('"sandbox_patch_state"') },
  clientPackage: { test: "test/client/readmeClient.test.ts", claims: (b: CodeBlock) => ts(b, 'from "@shardkit/client') },
  clientPack: { test: "test/client/packInstall.test.ts", claims: (b: CodeBlock) => sh(b, "npm pack -w @shardkit/client") },
  redisKeys: { test: "test/gateway/redis/gatewayRedis.test.ts", claims: (b: CodeBlock) => sh(b, "keys add --redis") },
  forkServe: { test: "test/readme/forkExamples.test.ts", claims: (b: CodeBlock) => sh(b, "shardkit serve --fork") },
  forkImpersonate: { test: "test/readme/forkExamples.test.ts", claims: (b: CodeBlock) => ts(b, 'from "near-api-js"') },
  gateway: { test: "test/readme/gatewayExamples.test.ts", claims: (b: CodeBlock) => sh(b, "shardkit gateway --upstream http://rpc-a:3030") },
} as const;
