import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Service } from "../../src/server/startService.js";
import { ALICE, BOB, NEAR, signedTx } from "../chain/runtime/helpers.js";
import { rpcError, rpcResult, startTestService } from "./harness.js";

// sandbox_fast_forward over real HTTP: heights, timestamps and epochs move as near-sandbox's do.
let service: Service;
let url: string;
const EPOCH = 10;
/** The chain's clock stands still: only fast-forwarding moves block time. */
const CLOCK_MS = Date.UTC(2026, 0, 1);
beforeAll(async () => {
  service = await startTestService({ chain: { blockTimeMs: 0, epochLength: EPOCH, now: () => CLOCK_MS }, apiPort: 0 });
  url = service.rpcUrl;
});
afterAll(() => service.close());

const block = (params: object) => rpcResult(url, "block", params);
const head = () => block({ finality: "optimistic" });
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

describe("sandbox_fast_forward", () => {
  it("advances the head by delta_height, every height a block, each one block time (1 s at --block-time 0) later", async () => {
    const before = await head();
    expect(await rpcResult(url, "sandbox_fast_forward", { delta_height: 25 })).toEqual({});
    const after = await head();
    expect(after.header.height).toBe(before.header.height + 25);
    const advancedNs = BigInt(after.header.timestamp_nanosec) - BigInt(before.header.timestamp_nanosec);
    expect(advancedNs).toBe(25n * 1_000_000_000n);
    // Every height in between is a block, chained by prev_hash.
    let child = after;
    for (let h = after.header.height - 1; h >= before.header.height; h--) {
      const parent = await block({ block_id: h });
      expect(child.header.prev_hash).toBe(parent.header.hash);
      child = parent;
    }
  });

  it("answers once the transaction history has the new head (/v0/block finds it at once)", async () => {
    const target = (await head()).header.height + 600;
    expect(await rpcResult(url, "sandbox_fast_forward", { delta_height: 600 })).toEqual({});
    expect(service.historyIndexer.lag).toBe(0);
    const response = await fetch(`${service.apiUrl}/v0/block`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ block_id: target }) });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { block: { block_height: number } | null }).block?.block_height).toBe(target);
  });

  it("crosses epoch boundaries as produced blocks do (epoch ids, epoch start heights)", async () => {
    const before = await head();
    await rpcResult(url, "sandbox_fast_forward", { delta_height: 2 * EPOCH + 3 });
    const after = await head();
    expect(after.header.epoch_id).not.toBe(before.header.epoch_id);
    const status = await rpcResult(url, "status", {});
    const h = after.header.height;
    expect(status.sync_info.epoch_start_height).toBe(Math.floor((h - 1) / EPOCH) * EPOCH + 1);
    // The epoch changed at its start height: the block before it announced the head's epoch as next.
    const epochStart = await block({ block_id: status.sync_info.epoch_start_height });
    const lastOfPrevious = await block({ block_id: status.sync_info.epoch_start_height - 1 });
    expect(epochStart.header.epoch_id).toBe(after.header.epoch_id);
    expect(lastOfPrevious.header.epoch_id).not.toBe(after.header.epoch_id);
    expect(lastOfPrevious.header.next_epoch_id).toBe(after.header.epoch_id);
  });

  it("later blocks keep the lead over the wall clock; pooled transactions run in the fast-forwarded blocks", async () => {
    const lead = service.chain.producer.clockLeadMs;
    expect(lead).toBeGreaterThanOrEqual(48_000);
    const signed = signedTx(service.chain, ALICE, BOB, [{ type: "Transfer", deposit: NEAR }]);
    const hash = await rpcResult(url, "broadcast_tx_async", [b64(signed)]);
    await rpcResult(url, "sandbox_fast_forward", { delta_height: 3 });
    const status = await rpcResult(url, "tx", { tx_hash: hash, sender_account_id: ALICE, wait_until: "NONE" });
    expect(status.status).toEqual({ SuccessValue: "" });
    const next = service.chain.produceBlock();
    // The lead is kept; with the clock standing still, the block is stamped 1 ms after its parent.
    expect(Number(next.timestampNs / 1_000_000n)).toBe(CLOCK_MS + lead + 3_000 + 1);
  });

  it("0 answers at once; out-of-range or missing delta_height is a PARSE_ERROR", async () => {
    const height = service.chain.head().height;
    expect(await rpcResult(url, "sandbox_fast_forward", { delta_height: 0 })).toEqual({});
    expect(service.chain.head().height).toBe(height);
    for (const params of [{}, { delta_height: -1 }, { delta_height: 100_001 }, { delta_height: 1.5 }, { delta_height: "3" }, { x: 1 }]) {
      const { status, error } = await rpcError(url, "sandbox_fast_forward", params);
      expect(status).toBe(400);
      expect(error.cause.name).toBe("PARSE_ERROR");
    }
    expect(service.chain.head().height).toBe(height);
  });

  it("refuses a second fast-forward while one runs with nearcore's INTERNAL_ERROR; requests are answered meanwhile", async () => {
    const height = service.chain.head().height;
    const first = rpcResult(url, "sandbox_fast_forward", { delta_height: 400 });
    // Wait until the first is under way (it yields between batches of blocks).
    while (service.chain.head().height === height) await new Promise((resolve) => setTimeout(resolve, 5));
    const [second, status] = await Promise.all([rpcError(url, "sandbox_fast_forward", { delta_height: 1 }), rpcResult(url, "status", {})]);
    expect(status.sync_info.latest_block_height).toBeLessThan(height + 400);
    expect(second.status).toBe(500);
    expect(second.error).toEqual({
      name: "INTERNAL_ERROR",
      cause: {
        name: "INTERNAL_ERROR",
        info: { error_message: 'sandbox failed to fast forward due to: "Consecutive fast_forward requests cannot be made while a current one is going on."' },
      },
      code: -32000,
      message: "Server error",
      data: 'sandbox failed to fast forward due to: "Consecutive fast_forward requests cannot be made while a current one is going on."',
    });
    expect(await first).toEqual({});
    expect(service.chain.head().height).toBe(height + 400);
  });
});
