// The forking guide (docs/forking.md), run as written against a real upstream (`shardkit serve`
// with a genesis of its own: test/chain/fork/upstreamGenesis.ts): its `serve --fork` line with
// the mainnet URL and block replaced by the upstream's, and its near-api-js 7 example with the
// upstream's holder and token in place of the mainnet names.

import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, runCli, stop, waitFor, type CliProcess, type ServeUrls } from "../cli/cliProcess.js";
import { HOLDER, TOKEN, rpcResult, startUpstream } from "../chain/fork/upstreamGenesis.js";
import { blockRunners, docBlock } from "./codeBlocks.js";

const run = promisify(execFile);
let upstream: CliProcess & ServeUrls;
let forkHeight: number;
let scratch: string;
let fork: CliProcess | undefined;

beforeAll(async () => {
  scratch = await mkdtemp(join(repoRoot, "test", "readme", ".tmp-fork-"));
  ({ upstream, finalHeight: forkHeight } = await startUpstream(scratch));
}, 120_000);

afterAll(async () => {
  if (fork) await stop(fork);
  if (upstream) await stop(upstream);
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe("forking guide", () => {
  it("forks the upstream with the guide's command, and the near-api-js example impersonates a holder there", async () => {
    const line = docBlock(blockRunners.forkServe.claims).code.trim();
    const args = line
      .replace("https://archival-rpc.mainnet.fastnear.com", upstream.archivalUrl)
      .replace(/--fork-block \d+/, `--fork-block ${forkHeight}`)
      .split(/\s+/);
    expect(args.slice(0, 3)).toEqual(["npx", "shardkit", "serve"]);
    fork = runCli([...args.slice(2), "--rpc-port", "0", "--archival-port", "0", "--api-port", "0", "--ephemeral"], { cwd: scratch });
    const [, rpcUrl] = await waitFor(() => fork!.output().stdout, /regular RPC\s+(http:\/\/\S+)/, 60_000);
    expect(fork.output().stdout).toContain(`fork of       ${upstream.archivalUrl} at block ${forkHeight}`);
    expect((await rpcResult(rpcUrl!, "block", { finality: "final" })).header.height).toBeGreaterThanOrEqual(forkHeight);

    const example = docBlock(blockRunners.forkImpersonate.claims);
    const file = join(scratch, `example-line-${example.line}.ts`);
    await writeFile(
      file,
      example.code
        .replace('from "near-api-js"', 'from "near-api-js-7"')
        .replaceAll("http://127.0.0.1:3030", rpcUrl!)
        .replace('"root.near"', JSON.stringify(HOLDER))
        .replace('"usdt.tether-token.near"', JSON.stringify(TOKEN)),
    );
    const { stdout } = await run(process.execPath, ["--import", "tsx", file], { cwd: repoRoot, timeout: 60_000 });
    expect(stdout.trim()).toBe("alice: 1000000");
    // The upstream did not move: the transfer happened on the fork alone.
    const args64 = Buffer.from(JSON.stringify({ account_id: "alice.test.near" })).toString("base64");
    const there = await rpcResult(upstream.archivalUrl, "query", { request_type: "call_function", account_id: TOKEN, method_name: "ft_balance_of", args_base64: args64, finality: "final" });
    expect(Buffer.from(there.result).toString()).toBe('"0"');
  }, 120_000);
});
