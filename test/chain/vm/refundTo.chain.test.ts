import { describe, expect, it } from "vitest";
import type { Chain } from "../../../src/chain/node.js";
import { decodeReceipt, encodeReceipt } from "../../../src/chain/runtime/receiptCodec.js";
import type { Receipt } from "../../../src/chain/runtime/receipt.js";
import { EMPTY_ED25519_KEY } from "../../../src/chain/runtime/receipt.js";
import { ALICE, BOB, CAROL, openChain, outcomeOf, settle, submit, sumOfBalances } from "../runtime/helpers.js";
import { call, deploy } from "./deploy.js";
import { E, hostErrorOf, hostKit } from "./hostKit.js";
import { REFUNDER } from "./refunderContract.js";

const b64 = (s: string): string => Buffer.from(s).toString("base64");

async function chainWithRefunders(): Promise<Chain> {
  const chain = await openChain();
  deploy(chain, ALICE, REFUNDER);
  deploy(chain, BOB, REFUNDER);
  return chain;
}

describe("promise_set_refund_to", () => {
  it("the receipt names refund_to (ActionReceiptV2); the callee's refund_to_account_id answers it", async () => {
    const chain = await chainWithRefunders();
    const o = outcomeOf(settle(chain, submit(chain, CAROL, ALICE, [call("send", "who")])));
    expect(o.status).toEqual({ SuccessValue: b64(CAROL) });
    const sent = chain.receipt(o.receipts_outcome[0]!.outcome.receipt_ids[0]!)!;
    expect(sent.receiver_id).toBe(BOB);
    expect(sent.receipt).toMatchObject({ Action: { refund_to: CAROL, actions: [{ FunctionCall: { method_name: "who", deposit: "1000" } }] } });
    // Without refund_to the callee sees its predecessor, and the view has no refund_to.
    const direct = outcomeOf(settle(chain, submit(chain, CAROL, BOB, [call("who")])));
    expect(direct.status).toEqual({ SuccessValue: b64(CAROL) });
    expect(chain.receipt(direct.transaction_outcome.outcome.receipt_ids[0]!)!.receipt).not.toHaveProperty("Action.refund_to");
  });

  it("a failed receipt's deposit goes back to refund_to, not to the predecessor", async () => {
    const chain = await chainWithRefunders();
    const o = outcomeOf(settle(chain, submit(chain, CAROL, ALICE, [call("send", "fail")])));
    expect(o.status).toMatchObject({ Failure: { ActionError: { kind: { FunctionCallError: { ExecutionError: "Smart contract panicked: explicit guest panic" } } } } });
    const failed = o.receipts_outcome.find((r) => r.outcome.executor_id === BOB)!;
    const refunds = failed.outcome.receipt_ids.map((id) => chain.receipt(id)!);
    expect(refunds).toContainEqual(expect.objectContaining({ predecessor_id: "system", receiver_id: CAROL, receipt: expect.objectContaining({ Action: expect.objectContaining({ actions: [{ Transfer: { deposit: "1000" } }] }) }) }));
    expect(refunds.some((r) => r.receiver_id === ALICE)).toBe(false);
    expect(sumOfBalances(chain)).toBe(BigInt(chain.head().view.header.total_supply));
  });

  it("charges base and the account id; refuses a joint promise, a bad account id and a view call", () => {
    const k = hostKit();
    const [al, ap] = k.put(0, BOB);
    const [cl, cp] = k.put(32, CAROL);
    const p = k.env.promise_batch_create(al, ap);
    const q = k.env.promise_batch_create(al, ap);
    const gas = k.gasOf(() => k.env.promise_set_refund_to(p, cl, cp));
    expect(gas).toBe(E.base + E.read_memory_base + cl * E.read_memory_byte + E.utf8_decoding_base + cl * E.utf8_decoding_byte);
    expect(k.l.receipts.receipts[0]!.refundTo).toBe(CAROL);
    expect(k.l.receipts.receipts[1]!.refundTo).toBeUndefined();
    const ids = Buffer.alloc(16);
    ids.writeBigUInt64LE(p, 0);
    ids.writeBigUInt64LE(q, 8);
    const [, ip] = k.put(128, ids);
    const joint = k.env.promise_and(ip, 2n);
    expect(hostErrorOf(() => k.env.promise_set_refund_to(joint, cl, cp))).toEqual({ name: "CannotSetRefundToOnJointPromise" });
    const [bl, bp] = k.put(64, "Not An Account");
    expect(hostErrorOf(() => k.env.promise_set_refund_to(p, bl, bp))).toEqual({ name: "InvalidAccountId" });
    const v = hostKit({ isView: true });
    expect(hostErrorOf(() => v.env.promise_set_refund_to(0n, cl, cp))).toEqual({ name: "ProhibitedInView", fields: { method_name: "promise_set_refund_to" } });
  });

  it("stores a receipt with refund_to as nearcore's ActionReceiptV2 (tag 5, or 6 when yielded) and reads it back", () => {
    const receipt: Receipt = {
      predecessorId: ALICE,
      receiverId: BOB,
      receiptId: new Uint8Array(32).fill(3),
      body: { type: "Action", signerId: CAROL, signerPublicKey: EMPTY_ED25519_KEY, gasPrice: 7n, outputDataReceivers: [], inputDataIds: [], actions: [], refundTo: CAROL },
    };
    const bytes = encodeReceipt(receipt);
    const tagAt = 4 + ALICE.length + 4 + BOB.length + 32;
    expect(bytes[tagAt]).toBe(5);
    // signer_id, then refund_to as Some(account id)
    expect(bytes[tagAt + 1 + 4 + CAROL.length]).toBe(1);
    expect(decodeReceipt(bytes)).toEqual(receipt);
    const yielded: Receipt = { ...receipt, body: { ...receipt.body, type: "Action", isPromiseYield: true } as Receipt["body"] };
    expect(encodeReceipt(yielded)[tagAt]).toBe(6);
    expect(decodeReceipt(encodeReceipt(yielded))).toEqual(yielded);
    const plain: Receipt = { ...receipt, body: { type: "Action", signerId: CAROL, signerPublicKey: EMPTY_ED25519_KEY, gasPrice: 7n, outputDataReceivers: [], inputDataIds: [], actions: [] } };
    expect(encodeReceipt(plain)[tagAt]).toBe(0);
  });
});
