import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, startServe, stop, type CliProcess, type ServeUrls } from "../cli/cliProcess.js";
import { blockRunners, docBlock } from "./codeBlocks.js";

// The dev-chain guide's near-api-js example of the sandbox methods (docs/dev-chain.md), run as
// written against a real `shardkit serve` (just the default port is replaced). Its curl block
// runs with the others in readmeExamples.test.ts.
const run = promisify(execFile);
const block = docBlock(blockRunners.sandbox.claims);
let server: CliProcess & ServeUrls;
let scratch: string;

beforeAll(async () => {
  server = await startServe(["--block-time", "100"]);
  scratch = await mkdtemp(join(repoRoot, "test", "readme", ".tmp-sandbox-"));
});

afterAll(async () => {
  if (server) expect(await stop(server)).toBe(0);
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe("dev-chain guide sandbox example", () => {
  it("funds an account by patch, signs with its key through near-api-js and fast-forwards", async () => {
    const file = join(scratch, `example-line-${block.line}.ts`);
    await writeFile(file, block.code.replaceAll("http://127.0.0.1:3030", server.rpcUrl));
    const before = Date.now();
    const { stdout } = await run(process.execPath, ["--import", "tsx", file], { cwd: repoRoot, timeout: 60_000 });
    const [transfer, head] = stdout.trim().split("\n");
    expect(transfer).toBe('transfer: {"SuccessValue":""}');
    const [, height, time] = /^head: (\d+) (\S+)$/.exec(head!)!;
    expect(Number(height)).toBeGreaterThanOrEqual(100);
    // 100 block times of 100 ms ahead of the wall clock.
    expect(Date.parse(time!)).toBeGreaterThanOrEqual(before + 100 * 100);
  }, 90_000);
});
