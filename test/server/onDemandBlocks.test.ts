import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Service } from "../../src/server/startService.js";
import { ALICE, BOB, CAROL, NEAR, signedTx } from "../chain/runtime/helpers.js";
import { rpcResult, startTestService } from "./harness.js";

// `--block-time 0` over HTTP: the handlers just submit; the chain's scheduler produces.

let service: Service;
let url: string;
beforeAll(async () => {
  service = await startTestService({ chain: { blockTimeMs: 0 } });
  url = service.rpcUrl;
});
afterAll(() => service.close());

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

/** Waits until no block has been produced for 20 event-loop turns; returns the head height. */
async function idleHeight(): Promise<number> {
  for (;;) {
    const height = service.chain.head().height;
    for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
    if (service.chain.head().height === height) return height;
  }
}

describe("on-demand blocks over JSON-RPC", () => {
  it("idle: no block is produced", async () => {
    const height = await idleHeight();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(service.chain.head().height).toBe(height);
    expect((await rpcResult(url, "block", { finality: "optimistic" })).header.height).toBe(height);
  });

  it("broadcast_tx_async: the transaction is executed and made final without anyone waiting, then production stops", async () => {
    const before = await idleHeight();
    const hash: string = await rpcResult(url, "broadcast_tx_async", [b64(signedTx(service.chain, ALICE, BOB, [{ type: "Transfer", deposit: NEAR }]))]);
    const after = await idleHeight();
    expect(after).toBe(before + 5); // inclusion, the receipt on bob's shard, its gas refund on alice's, two blocks that make it final
    const status = await rpcResult(url, "tx", { tx_hash: hash, sender_account_id: ALICE, wait_until: "NONE" });
    expect(status.final_execution_status).toBe("FINAL");
    expect(status.status).toEqual({ SuccessValue: "" });
    // A `final` read sees the transfer (near-workspaces reads balances with finality final).
    const final = await rpcResult(url, "block", { finality: "final" });
    expect(final.header.height).toBe(before + 3);
  });

  it("broadcast_tx_commit answers the executed transaction", async () => {
    const result = await rpcResult(url, "broadcast_tx_commit", [b64(signedTx(service.chain, BOB, CAROL, [{ type: "Transfer", deposit: 1n }]))]);
    expect(result.status).toEqual({ SuccessValue: "" });
    expect(result.final_execution_status).toBe("EXECUTED_OPTIMISTIC");
  });

  it("send_tx wait_until FINAL gets the two blocks on top, then production stops", async () => {
    const before = await idleHeight();
    const result = await rpcResult(url, "send_tx", { signed_tx_base64: b64(signedTx(service.chain, CAROL, ALICE, [{ type: "Transfer", deposit: 1n }])), wait_until: "FINAL" });
    expect(result.final_execution_status).toBe("FINAL");
    const final = await rpcResult(url, "block", { finality: "final" });
    expect(final.header.height).toBeGreaterThanOrEqual(before + 2);
    expect(await idleHeight()).toBe(before + 5); // with the gas refund's block
  });

  it("tx wait_until FINAL once production stopped answers at once: the last busy block is already final", async () => {
    const hash: string = await rpcResult(url, "broadcast_tx_async", [b64(signedTx(service.chain, ALICE, CAROL, [{ type: "Transfer", deposit: 1n }]))]);
    const idleAt = await idleHeight();
    const status = await rpcResult(url, "tx", { tx_hash: hash, sender_account_id: ALICE, wait_until: "FINAL" });
    expect(status.final_execution_status).toBe("FINAL");
    expect(await idleHeight()).toBe(idleAt);
  });
});
