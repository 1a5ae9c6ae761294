// Every curl line the docs site prints, run with bash and curl as a reader would copy it, against
// a real `shardkit serve` (with just the default ports replaced). JSON-RPC lines must be accepted
// as well-formed requests (their example hashes need not exist on this chain); REST lines must
// answer 200 in every auth form with a real key, and a wrong key must reach the server as one.

import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, runCli, startServe, stop, type CliProcess, type ServeUrls } from "../cli/cliProcess.js";

const run = promisify(execFile);
const docsDir = join(repoRoot, "generated", "docs");

function unescapeHtml(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
}

async function curlLines(folder: "rpc" | "rest"): Promise<{ page: string; line: string }[]> {
  const pages = (await readdir(join(docsDir, folder))).filter((f) => f.endsWith(".html")).sort();
  const lines: { page: string; line: string }[] = [];
  for (const page of pages) {
    const html = await readFile(join(docsDir, folder, page), "utf8");
    for (const match of html.matchAll(/<pre class="curl">([^<]*)<\/pre>/g)) lines.push({ page: `${folder}/${page}`, line: unescapeHtml(match[1]!) });
  }
  return lines;
}

let server: CliProcess & ServeUrls;
let scratch: string;
let apiKey: string;

/** Runs one copied line with bash; returns curl's body and the HTTP status it printed last. */
async function runLine(line: string, key: string): Promise<{ status: number; body: string }> {
  const copied = line
    .replaceAll("http://127.0.0.1:3030", server.rpcUrl)
    .replaceAll("http://127.0.0.1:3040", server.apiUrl);
  const wrapper = `curl() { command curl --max-time 20 --write-out '\\n%{http_code}' "$@"; }\n`;
  const { stdout } = await run("bash", ["-c", wrapper + copied], { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", SHARDKIT_API_KEY: key }, timeout: 30_000 });
  const cut = stdout.lastIndexOf("\n");
  return { status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) };
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "shardkit-docs-curl-"));
  const keysFile = join(scratch, "keys.json");
  const add = runCli(["keys", "add", "--file", keysFile, "--name", "docs"]);
  expect(await add.exited).toBe(0);
  apiKey = add.output().stdout.trim().split("\n").at(-1)!.trim();
  // A short transaction timeout: the `tx` examples' hashes are unknown here, so they wait it out.
  server = await startServe(["--block-time", "0", "--log-level", "warn", "--keys", keysFile, "--tx-timeout", "1000"]);
}, 60_000);

afterAll(async () => {
  if (server) expect(await stop(server)).toBe(0);
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe("the docs' curl lines, run against shardkit serve", () => {
  it("JSON-RPC: every example line is a request the server accepts (no parse or validation error)", async () => {
    const lines = await curlLines("rpc");
    expect(lines.length).toBeGreaterThan(40);
    const refused: string[] = [];
    let answered = 0;
    // Four at a time: the `tx` examples wait out the server's timeout for their unknown hashes.
    const queue = [...lines];
    const worker = async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        const { page, line } = next;
        const { status, body } = await runLine(line, apiKey);
        const reply = JSON.parse(body) as { jsonrpc: string; result?: unknown; error?: { name: string } };
        if (reply.jsonrpc !== "2.0") refused.push(`${page}: not a JSON-RPC reply: ${body.slice(0, 200)}`);
        // Handler errors (an example's tx hash is unknown here, so `tx` waits and times out with
        // 408) are answers; a request the server could not parse or validate is a broken line.
        if (reply.error?.name === "REQUEST_VALIDATION_ERROR" || status === 400) refused.push(`${page}: ${status} ${body.slice(0, 200)}`);
        if (reply.result !== undefined) answered++;
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    expect(refused).toEqual([]);
    // Most examples read what every chain has (status, final blocks, dev accounts).
    expect(answered).toBeGreaterThan(lines.length / 3);
  }, 240_000);

  it("REST: every route answers 200 JSON in each form, without a key, with a Bearer header and with ?apiKey=", async () => {
    const lines = await curlLines("rest");
    expect(lines.filter((l) => l.line.includes("Authorization: Bearer $SHARDKIT_API_KEY")).length).toBeGreaterThan(5);
    expect(lines.filter((l) => l.line.includes("apiKey=$SHARDKIT_API_KEY")).length).toBeGreaterThan(5);
    for (const { page, line } of lines) {
      const { status, body } = await runLine(line, apiKey);
      expect(`${page} ${status}`).toBe(`${page} 200`);
      expect(typeof JSON.parse(body), page).toBe("object");
    }
  }, 120_000);

  it("REST: the key forms really send the key (a wrong one gets 403 Unknown API key)", async () => {
    const keyed = (await curlLines("rest")).filter((l) => l.line.includes("$SHARDKIT_API_KEY"));
    for (const { page, line } of keyed) {
      expect(await runLine(line, "not-a-key"), page).toEqual({ status: 403, body: "Unknown API key" });
    }
  }, 120_000);
});
