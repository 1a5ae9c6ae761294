import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Service } from "../../../src/server/startService.js";
import { stop, type CliProcess, type ServeUrls } from "../../cli/cliProcess.js";
import { rpc, startTestService } from "../../server/harness.js";
import { HOLDER, OWNER, rpcResult, sendWithDevKey, startUpstream } from "./upstreamGenesis.js";

// shardkit_reset (Anvil's anvil_reset) over HTTP on a data-dir service: a dev chain becomes a
// fork and back, a fork moves to another block, the same start again, and an upstream that
// cannot be reached leaves the chain as it was.

let dir: string;
let upstream: CliProcess & ServeUrls;
let firstFork: number;
let service: Service;

const reset = async (params: Record<string, unknown>) => (await rpc(service.rpcUrl, "shardkit_reset", params)).body;
const balance = async (accountId: string) => {
  const reply = (await rpc(service.rpcUrl, "query", { request_type: "view_account", account_id: accountId, finality: "optimistic" })).body;
  return reply.result?.amount as string | undefined;
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "shardkit-fork-reset-"));
  ({ upstream, finalHeight: firstFork } = await startUpstream(dir));
  service = await startTestService({ chain: { blockTimeMs: 0, dataDir: join(dir, "served") } });
}, 120_000);

afterAll(async () => {
  await service?.close();
  if (upstream !== undefined) await stop(upstream);
  rmSync(dir, { recursive: true, force: true });
});

describe("shardkit_reset", () => {
  it("turns a dev chain into a fork of the upstream, then moves the fork to a later block", async () => {
    expect(await balance(OWNER)).toBeUndefined();
    const forked = await reset({ fork_url: upstream.archivalUrl, fork_block: firstFork });
    expect(forked.result).toMatchObject({ block_height: firstFork, fork: { url: upstream.archivalUrl, block_height: firstFork } });
    const atFirst = await balance(OWNER);
    expect(atFirst).toBe((await rpcResult(upstream.archivalUrl, "query", { request_type: "view_account", account_id: OWNER, block_id: firstFork })).amount);
    expect(service.chain.fork?.height).toBe(firstFork);

    // The upstream moves on; the fork moves with a reset at its new final block (fork_block alone: the same upstream).
    await sendWithDevKey(upstream.archivalUrl, OWNER, HOLDER, [{ type: "Transfer", deposit: 10n ** 24n }]);
    const later = (await rpcResult(upstream.archivalUrl, "block", { finality: "final" })).header.height as number;
    const moved = await reset({ fork_block: later });
    expect(moved.result.block_height).toBe(later);
    expect(BigInt((await balance(OWNER))!)).toBeLessThan(BigInt(atFirst!) - 10n ** 24n);
  });

  it("starts the same fork again without params, dropping what happened on it", async () => {
    const start = service.chain.fork!;
    await rpc(service.rpcUrl, "sandbox_patch_state", { records: [{ Account: { account_id: "patched.near", account: { amount: "1", locked: "0", code_hash: "11111111111111111111111111111111", storage_usage: 182 } } }] });
    expect(await balance("patched.near")).toBe("1");
    const again = await reset({});
    expect(again.result).toMatchObject({ block_height: start.height, block_hash: start.blockHash, fork: { block_hash: start.blockHash } });
    expect(await balance("patched.near")).toBeUndefined();
  });

  it("refuses an upstream it cannot reach with INTERNAL_ERROR and keeps the chain", async () => {
    const before = service.chain.head().hash;
    const refused = await reset({ fork_url: "http://127.0.0.1:9/" });
    expect(refused.error.cause.name).toBe("INTERNAL_ERROR");
    expect(refused.error.data).toMatch(/^fork upstream http:\/\/127\.0\.0\.1:9\/ failed status: /);
    expect(service.chain.head().hash).toBe(before);
    const fork = await reset({ fork_url: null, fork_block: 5 });
    expect(fork.error.cause.name).toBe("PARSE_ERROR");
  });

  it("drops the fork for a new dev chain (fork_url: null)", async () => {
    const plain = await reset({ fork_url: null });
    expect(plain.result).toMatchObject({ block_height: 0, fork: null });
    expect(service.chain.fork).toBeUndefined();
    expect(await balance("alice.test.near")).toBe("10000000000000000000000000000");
    expect(await balance(OWNER)).toBeUndefined();
    // The REST index and the history follow the new chain.
    const archival = await rpc(service.archivalUrl, "shardkit_reset", {});
    expect(archival.body.error.cause.name).toBe("METHOD_NOT_FOUND");
  });
});
