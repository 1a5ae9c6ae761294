import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Service } from "../../../src/server/startService.js";
import { base58Decode, base58Encode } from "@shardkit/primitives/base58";
import { receiptIdFromReceipt } from "../../../src/chain/runtime/receiptId.js";
import { ALICE, BOB, CAROL, signedTx } from "../runtime/helpers.js";
import { rpcResult, startTestService } from "../../server/harness.js";
import { call } from "./deploy.js";
import { YIELDER } from "./yieldContract.js";

// Yield/resume over real HTTP: the yielded and resume receipts as nearcore renders them
// (results checked against the spec by the harness).
let service: Service;
let url: string;
beforeAll(async () => {
  service = await startTestService({ txTimeoutMs: 5_000 });
  url = service.rpcUrl;
});
afterAll(() => service.close());

const b64 = (b: Uint8Array | string): string => Buffer.from(b).toString("base64");

async function send(signer: string, receiver: string, actions: Parameters<typeof signedTx>[3], waitUntil = "FINAL") {
  return rpcResult(url, "send_tx", { signed_tx_base64: b64(signedTx(service.chain, signer, receiver, actions)), wait_until: waitUntil });
}

describe("yield/resume over JSON-RPC", () => {
  it("tx, EXPERIMENTAL_tx_status and EXPERIMENTAL_receipt show is_promise_yield / is_promise_resume", async () => {
    expect((await send(ALICE, ALICE, [{ type: "DeployContract", code: YIELDER }])).status).toEqual({ SuccessValue: "" });
    const requested = await send(CAROL, ALICE, [call("request", "{}")], "INCLUDED");
    const txHash = requested.transaction.hash;
    // Until the request's receipt has run and yielded.
    let pending: any;
    for (;;) {
      pending = await rpcResult(url, "EXPERIMENTAL_tx_status", { tx_hash: txHash, sender_account_id: CAROL, wait_until: "NONE" });
      if (pending.receipts_outcome?.length > 0) break;
      service.chain.produceBlock();
    }
    const yieldId = pending.receipts_outcome[0].outcome.receipt_ids[0];
    const yielded = await rpcResult(url, "EXPERIMENTAL_receipt", { receipt_id: yieldId });
    expect(yielded.receipt.Action.is_promise_yield).toBe(true);
    expect(yielded.receipt.Action.actions).toEqual([{ FunctionCall: { method_name: "on_resume", args: b64("{}"), gas: 20_000_000_000_000, deposit: "0" } }]);

    const responded = await send(BOB, ALICE, [call("respond", "sig")]);
    expect(responded.status).toEqual({ SuccessValue: b64("1") });
    const full = await rpcResult(url, "EXPERIMENTAL_tx_status", { tx_hash: txHash, sender_account_id: CAROL, wait_until: "FINAL" });
    expect(full.status).toEqual({ SuccessValue: b64("sig") });
    const inFull = full.receipts.find((r: any) => r.receipt_id === yieldId);
    expect(inFull.receipt.Action.is_promise_yield).toBe(true);
    const dataId = yielded.receipt.Action.input_data_ids[0];
    const respTx = await rpcResult(url, "EXPERIMENTAL_tx_status", { tx_hash: responded.transaction.hash, sender_account_id: BOB, wait_until: "FINAL" });
    // The resume is a data receipt: not among the outcomes' receipt ids, so not in the tx's receipts.
    expect(respTx.receipts.some((r: any) => "Data" in r.receipt)).toBe(false);
    const respReceipt = respTx.receipts_outcome[0];
    const height = service.chain.blockByHash(respReceipt.block_hash)!.height;
    const resumeId = base58Encode(receiptIdFromReceipt(base58Decode(respReceipt.id), height, 0));
    expect(await rpcResult(url, "EXPERIMENTAL_receipt", { receipt_id: resumeId })).toEqual({
      predecessor_id: ALICE,
      receiver_id: ALICE,
      receipt_id: resumeId,
      receipt: { Data: { data_id: dataId, data: b64("sig"), is_promise_resume: true } },
      priority: 0,
    });
    const tx = await rpcResult(url, "tx", { tx_hash: txHash, sender_account_id: CAROL });
    expect(tx.receipts_outcome.map((r: any) => r.id)).toContain(yieldId);
  });

  it("sandbox_fast_forward past yield_timeout_length_in_blocks resolves a yield nobody resumes", async () => {
    // ALICE runs YIELDER since the test above.
    const requested = await send(CAROL, ALICE, [call("request", "{}")], "INCLUDED");
    const txHash = requested.transaction.hash;
    expect(await rpcResult(url, "sandbox_fast_forward", { delta_height: 202 })).toEqual({});
    const done = await rpcResult(url, "EXPERIMENTAL_tx_status", { tx_hash: txHash, sender_account_id: CAROL, wait_until: "FINAL" });
    expect(done.status).toEqual({ SuccessValue: b64("timeout") });
    expect(done.receipts_outcome.some((r: any) => r.outcome.logs[0] === "timed out")).toBe(true);
  });
});
