// The deployment guide's `shardkit gateway` command (docs/deployment.md), run as written with the
// node names pointed at a real `shardkit serve` (regular and archival listeners) and the keys file
// it names made by `shardkit keys add`: the gateway comes up and forwards with a key.

import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, runCli, startServe, stop, waitFor, type CliProcess, type ServeUrls } from "../cli/cliProcess.js";
import { blockRunners, docBlock } from "./codeBlocks.js";

let upstream: CliProcess & ServeUrls;
let scratch: string;

beforeAll(async () => {
  upstream = await startServe(["--block-time", "0"]);
  scratch = await mkdtemp(join(repoRoot, "test", "readme", ".tmp-gateway-"));
});

afterAll(async () => {
  if (upstream) expect(await stop(upstream)).toBe(0);
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe("deployment guide gateway command", () => {
  it("starts a gateway that forwards to the named nodes with a key from the named file", async () => {
    const block = docBlock(blockRunners.gateway.claims);
    const args = block.code
      .replaceAll("\\\n", " ")
      .replaceAll("http://rpc-a:3030", upstream.rpcUrl)
      .replaceAll("http://rpc-b:3030", upstream.rpcUrl)
      .replaceAll("http://archival-a:3030", upstream.archivalUrl)
      .trim()
      .split(/\s+/);
    expect(args.slice(0, 2)).toEqual(["shardkit", "gateway"]);
    const keysFile = args[args.indexOf("--keys") + 1]!;
    const add = runCli(["keys", "add", "--file", keysFile, "--name", "docs"], { cwd: scratch });
    expect(await add.exited).toBe(0);
    const key = add.output().stdout.trimEnd().split("\n").at(-1)!;
    const gateway = runCli([...args.slice(1), "--rpc-port", "0", "--archival-port", "0", "--api-port", "0"], { cwd: scratch });
    try {
      const [, rpcUrl] = await waitFor(() => gateway.output().stdout, /regular RPC\s+(http:\/\/\S+)/, 60_000);
      const [, archivalUrl] = await waitFor(() => gateway.output().stdout, /archival RPC\s+(http:\/\/\S+)/, 5_000);
      for (const url of [rpcUrl!, archivalUrl!]) {
        const reply = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "block", params: { finality: "final" } }),
        });
        expect(reply.status).toBe(200);
        expect(((await reply.json()) as { result: { header: { height: number } } }).result.header.height).toBeGreaterThanOrEqual(0);
      }
      const refused = await fetch(rpcUrl!, { method: "POST", headers: { authorization: "Bearer nope" }, body: "{}" });
      expect(refused.status).toBe(403);
    } finally {
      await stop(gateway);
    }
  }, 120_000);
});
