import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devKeyPair } from "../../../src/chain/genesis/devKey.js";
import { startServe, stop, type CliProcess, type ServeUrls } from "../../cli/cliProcess.js";
import { BIG, HOLDER, OWNER, TOKEN, rpcResult, startUpstream } from "./upstreamGenesis.js";

/** `shardkit serve --fork` over HTTP: forwarding below the fork, a warm restart, the upstream gone. */

let dir: string;
let upstream: (CliProcess & ServeUrls) | undefined;
let fork: (CliProcess & ServeUrls) | undefined;
let forkHeight: number;
/** The upstream's `send_tx` answer for its transfer before the fork. */
let transfer: any;

async function call(url: string, method: string, params: unknown): Promise<{ result?: any; error?: any }> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  return (await response.json()) as { result?: any; error?: any };
}
const result = rpcResult;
/** The upstream's archival URL (kept after the upstream is stopped). */
let upstreamUrl: string;

const startFork = (dataDir: string) => startServe(["--fork", upstreamUrl, "--fork-block", String(forkHeight), "--block-time", "0", "--data-dir", dataDir]);

/** What a user reads first on a fork: an account, a key, a view call, a page of state. */
async function firstTouches(url: string) {
  return {
    account: await result(url, "query", { request_type: "view_account", account_id: OWNER, finality: "final" }),
    key: await result(url, "query", { request_type: "view_access_key", account_id: HOLDER, public_key: devKeyPair(HOLDER).publicKeyString, finality: "final" }),
    balance: await result(url, "query", {
      request_type: "call_function",
      account_id: TOKEN,
      method_name: "ft_balance_of",
      args_base64: Buffer.from(JSON.stringify({ account_id: HOLDER })).toString("base64"),
      finality: "final",
    }),
    page: await result(url, "query", { request_type: "view_state", account_id: BIG, prefix_base64: "", limit: 5, finality: "final" }),
  };
}
const withoutBlock = ({ block_height, block_hash, ...rest }: any) => rest;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "shardkit-fork-serve-"));
  ({ upstream, finalHeight: forkHeight, transfer } = await startUpstream(dir));
  upstreamUrl = upstream.archivalUrl;
  fork = await startFork(join(dir, "fork"));
}, 120_000);

afterAll(async () => {
  if (fork !== undefined) await stop(fork);
  if (upstream !== undefined) await stop(upstream);
  rmSync(dir, { recursive: true, force: true });
});

describe("shardkit serve --fork", () => {
  it("serves blocks at and below the fork block from the upstream, and continues from it", async () => {
    const upstreamBlock = await result(upstream!.archivalUrl, "block", { block_id: forkHeight });
    expect(await result(fork!.rpcUrl, "block", { block_id: forkHeight })).toEqual(upstreamBlock);
    expect(await result(fork!.rpcUrl, "block", { block_id: upstreamBlock.header.hash })).toEqual(upstreamBlock);
    const chunkHash = upstreamBlock.chunks[0].chunk_hash;
    expect((await result(fork!.rpcUrl, "chunk", { chunk_id: chunkHash })).header.chunk_hash).toBe(chunkHash);
    // State before the fork block is the upstream's to tell.
    const before = await result(upstream!.archivalUrl, "query", { request_type: "view_account", account_id: OWNER, block_id: forkHeight - 1 });
    expect(await result(fork!.rpcUrl, "query", { request_type: "view_account", account_id: OWNER, block_id: forkHeight - 1 })).toEqual(before);
    // Transactions and receipts of the forked chain are the upstream's to tell too.
    const params = { tx_hash: transfer.transaction.hash, sender_account_id: OWNER, wait_until: "FINAL" };
    expect(await result(fork!.rpcUrl, "tx", params)).toEqual(await result(upstream!.archivalUrl, "tx", params));
    const receiptId = transfer.transaction_outcome.outcome.receipt_ids[0];
    expect(await result(fork!.rpcUrl, "EXPERIMENTAL_receipt", { receipt_id: receiptId })).toEqual(await result(upstream!.archivalUrl, "EXPERIMENTAL_receipt", { receipt_id: receiptId }));
    const status = await result(fork!.rpcUrl, "status", []);
    expect(status.chain_id).toBe("upstream-test");
    expect(status.sync_info.latest_block_height).toBeGreaterThanOrEqual(forkHeight);
  });

  it("reads state as the upstream's at the fork block", async () => {
    const ours = await firstTouches(fork!.rpcUrl);
    const theirs = {
      account: await result(upstream!.archivalUrl, "query", { request_type: "view_account", account_id: OWNER, block_id: forkHeight }),
      page: await result(upstream!.archivalUrl, "query", { request_type: "view_state", account_id: BIG, prefix_base64: "", limit: 5, block_id: forkHeight }),
    };
    expect(withoutBlock(ours.account)).toEqual(withoutBlock(theirs.account));
    expect(withoutBlock(ours.page)).toEqual(withoutBlock(theirs.page));
    expect(JSON.parse(Buffer.from(ours.balance.result).toString())).toBe((100n * 10n ** 18n).toString());
  });

  it("restarts from its data dir without the upstream for what it has seen; what it has not seen is a clear error", async () => {
    const seen = await firstTouches(fork!.rpcUrl);
    await stop(fork!);
    await stop(upstream!);
    upstream = undefined;
    fork = await startFork(join(dir, "fork"));
    const again = await firstTouches(fork.rpcUrl);
    expect(withoutBlock(again.account)).toEqual(withoutBlock(seen.account));
    expect(withoutBlock(again.key)).toEqual(withoutBlock(seen.key));
    expect(again.balance.result).toEqual(seen.balance.result);
    expect(withoutBlock(again.page)).toEqual(withoutBlock(seen.page));
    const unseen = await call(fork.rpcUrl, "query", { request_type: "view_account", account_id: "never-seen.near", finality: "final" });
    expect(unseen.error.cause.name).toBe("INTERNAL_ERROR");
    expect(unseen.error.data).toMatch(/fork upstream http:\/\/127\.0\.0\.1:\d+\S* failed query view_account never-seen\.near: .*ECONNREFUSED/);
    // The fork still answers and still produces blocks.
    expect((await result(fork.rpcUrl, "status", [])).chain_id).toBe("upstream-test");
  }, 60_000);
});
