import { describe, expect, it } from "vitest";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import { bytesToLatin1 } from "../../../src/chain/primitives/latin1.js";
import { enqueuePromiseYieldTimeout, resolvePromiseYieldTimeouts } from "../../../src/chain/runtime/PromiseYieldTimeouts.js";
import { EMPTY_ED25519_KEY, type Receipt } from "../../../src/chain/runtime/receipt.js";
import { encodeReceipt } from "../../../src/chain/runtime/receiptCodec.js";
import { receiptIdFromReceipt } from "../../../src/chain/runtime/receiptId.js";
import { PROMISE_YIELD_INDICES_KEY, promiseYieldReceiptKey, promiseYieldTimeoutKey } from "../../../src/chain/runtime/runtimeTrieKeys.js";
import { StateUpdate } from "../../../src/chain/runtime/StateUpdate.js";
import { MemoryStateStore } from "../../../src/chain/store/MemoryStateStore.js";
import { ALICE, BOB } from "./helpers.js";

const id = (n: number) => sha256(Uint8Array.of(n));

function yieldReceipt(receiverId: string, dataId: Uint8Array, receiptId: Uint8Array): Receipt {
  return {
    predecessorId: receiverId,
    receiverId,
    receiptId,
    body: {
      type: "Action",
      signerId: receiverId,
      signerPublicKey: EMPTY_ED25519_KEY,
      gasPrice: 0n,
      outputDataReceivers: [],
      inputDataIds: [dataId],
      actions: [],
      isPromiseYield: true,
    },
  };
}

describe("the PromiseYield timeout queue", () => {
  it("resolves, in order, the entries expired by the height whose yields are still stored; stops while the chunk is full", () => {
    const su = new StateUpdate(new MemoryStateStore().build([], []));
    enqueuePromiseYieldTimeout(su, ALICE, id(1), 10); // resumed already: no receipt stored
    enqueuePromiseYieldTimeout(su, BOB, id(2), 10);
    enqueuePromiseYieldTimeout(su, ALICE, id(3), 12);
    // nearcore's borsh: account_id string, data_id [32], expires_at u64.
    expect(su.get(promiseYieldTimeoutKey(1n))).toBe(bytesToLatin1(Buffer.concat([Buffer.from([BOB.length, 0, 0, 0]), Buffer.from(BOB), id(2), Buffer.from([10, 0, 0, 0, 0, 0, 0, 0])])));
    su.set(promiseYieldReceiptKey(BOB, id(2)), bytesToLatin1(encodeReceipt(yieldReceipt(BOB, id(2), id(20)))));
    su.set(promiseYieldReceiptKey(ALICE, id(3)), bytesToLatin1(encodeReceipt(yieldReceipt(ALICE, id(3), id(30)))));

    expect(resolvePromiseYieldTimeouts(su, 10, () => true)).toEqual([]);
    expect(resolvePromiseYieldTimeouts(su, 9, () => false)).toEqual([]);
    expect(resolvePromiseYieldTimeouts(su, 11, () => false)).toEqual([
      {
        resume: { predecessorId: BOB, receiverId: BOB, receiptId: receiptIdFromReceipt(id(2), 11, 0), body: { type: "Data", dataId: id(2), data: null, isPromiseResume: true } },
        yieldReceiptId: id(20),
      },
    ]);
    expect(su.get(promiseYieldTimeoutKey(0n))).toBeUndefined();
    expect(su.get(PROMISE_YIELD_INDICES_KEY)).toBe(bytesToLatin1(Buffer.from([2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0])));
    expect(resolvePromiseYieldTimeouts(su, 12, () => false).map((t) => t.yieldReceiptId)).toEqual([id(30)]);
  });
});
