import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Service } from "../../../src/server/startService.js";
import { ALICE, BOB, CAROL, signedTx } from "../runtime/helpers.js";
import { rpcResult, startTestService } from "../../server/harness.js";
import { call } from "./deploy.js";
import { PROBE } from "./probeContract.js";

// Contract receipts over real HTTP: send_tx / tx / EXPERIMENTAL_tx_status show the receipt DAG a
// contract's promises make (results checked against the spec by the harness).
let service: Service;
let url: string;
beforeAll(async () => {
  service = await startTestService({ txTimeoutMs: 5_000 });
  url = service.rpcUrl;
});
afterAll(() => service.close());

const b64 = (b: Uint8Array | string): string => Buffer.from(b).toString("base64");

async function send(signer: string, receiver: string, actions: Parameters<typeof signedTx>[3]) {
  return rpcResult(url, "send_tx", { signed_tx_base64: b64(signedTx(service.chain, signer, receiver, actions)), wait_until: "FINAL" });
}

describe("contract receipts over JSON-RPC", () => {
  it("a cross-shard promise with a callback: outcomes, logs, gas and the receipts' data wiring", async () => {
    expect((await send(ALICE, ALICE, [{ type: "DeployContract", code: PROBE }])).status).toEqual({ SuccessValue: "" });
    expect((await send(BOB, BOB, [{ type: "DeployContract", code: PROBE }])).status).toEqual({ SuccessValue: "" });
    const sent = await send(CAROL, ALICE, [call("join", BOB)]);
    expect(sent.status).toEqual({ SuccessValue: b64("2") });
    const txHash = sent.transaction.hash;
    const full = await rpcResult(url, "EXPERIMENTAL_tx_status", { tx_hash: txHash, sender_account_id: CAROL, wait_until: "FINAL" });
    expect(full.receipts_outcome).toEqual(sent.receipts_outcome);
    const [join] = full.receipts_outcome;
    const [leafId, failId, cbId] = join.outcome.receipt_ids;
    const byId = new Map<string, any>(full.receipts.map((r: any) => [r.receipt_id, r]));
    const cb = byId.get(cbId)!.receipt.Action;
    expect(cb.input_data_ids).toHaveLength(2);
    expect(byId.get(leafId)!.receipt.Action.output_data_receivers).toEqual([{ data_id: cb.input_data_ids[0], receiver_id: ALICE }]);
    expect(byId.get(failId)!.receipt.Action.output_data_receivers).toEqual([{ data_id: cb.input_data_ids[1], receiver_id: ALICE }]);
    const cbOutcome = full.receipts_outcome.find((r: any) => r.id === cbId);
    expect(cbOutcome.outcome.logs).toEqual(["ping", "failed"]);
    // Contract receipts burn tokens for their gas; the gas refund to the signer burns none.
    for (const r of full.receipts_outcome) {
      const burnt = r.outcome.executor_id === CAROL ? 0n : BigInt(r.outcome.gas_burnt) * 100_000_000n;
      expect(r.outcome.tokens_burnt).toBe(burnt.toString());
    }
    const tx = await rpcResult(url, "tx", { tx_hash: txHash, sender_account_id: CAROL });
    expect(tx.receipts_outcome.map((r: any) => r.id)).toEqual(full.receipts_outcome.map((r: any) => r.id));
  });
});
