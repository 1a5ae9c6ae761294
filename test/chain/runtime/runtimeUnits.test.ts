import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { devKeyPair } from "../../../src/chain/genesis/devKey.js";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import { totalSendFees, execFee } from "../../../src/chain/runtime/actionFees.js";
import { NEARCORE_RUNTIME_PARAMETERS as P } from "../../../src/chain/runtime/parameters.js";
import { EMPTY_ED25519_KEY, type Receipt } from "../../../src/chain/runtime/receipt.js";
import { decodeReceipt, encodeReceipt } from "../../../src/chain/runtime/receiptCodec.js";
import { actionHash, receiptIdFromReceipt, receiptIdFromTransaction } from "../../../src/chain/runtime/receiptId.js";
import { StateUpdate } from "../../../src/chain/runtime/StateUpdate.js";
import { getAccessKey, getFunctionCallAccessKey, setAccessKey } from "../../../src/chain/runtime/stateAccess.js";
import { bytesToLatin1 } from "../../../src/chain/primitives/latin1.js";
import { accessKeyTrieKey } from "../../../src/chain/store/trieKeys.js";
import { transactionCost } from "../../../src/chain/runtime/transactionCost.js";
import { MemoryStateStore } from "../../../src/chain/store/MemoryStateStore.js";
import { MIGRATION } from "../../../src/chain/runtime/StateChangeCause.js";
import type { Action } from "../../../src/chain/transaction/index.js";
import { ALICE, BOB, GAS_PRICE, NEAR, PURCHASE_PRICE, TRANSFER_GAS, openChain, settle, submit } from "./helpers.js";

const le64 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(n);
  return b;
};

describe("receipt ids", () => {
  it("are sha256(base ‖ u64_le(block height) ‖ u64_le(salt))", () => {
    const tx = sha256(new Uint8Array([1, 2, 3]));
    expect(receiptIdFromTransaction(tx, 7)).toEqual(sha256(Buffer.concat([tx, le64(7n), le64(0n)])));
    const r = receiptIdFromTransaction(tx, 7);
    expect(receiptIdFromReceipt(r, 8, 2)).toEqual(sha256(Buffer.concat([r, le64(8n), le64(2n)])));
    expect(actionHash(r, 8, 0)).toEqual(sha256(Buffer.concat([r, le64(8n), le64(2n ** 64n - 1n)])));
  });

  it("name a transaction's receipt by the tx hash and the inclusion height", async () => {
    const chain = await openChain();
    const hash = submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: 1n }]);
    const s = settle(chain, hash);
    const { base58Decode, base58Encode } = await import("@shardkit/primitives/base58");
    const txBlock = chain.blockByHash(s.outcome!.transaction_outcome.block_hash)!;
    expect(s.outcome!.transaction_outcome.outcome.receipt_ids).toEqual([base58Encode(receiptIdFromTransaction(base58Decode(hash), txBlock.height))]);
  });
});

describe("fee table", () => {
  it("matches nearcore's transfer numbers", () => {
    const cost = transactionCost(P, ALICE, BOB, [{ type: "Transfer", deposit: NEAR }], GAS_PRICE, EMPTY_ED25519_KEY);
    expect(cost.gasBurnt).toBe(TRANSFER_GAS);
    expect(cost.gasRemaining).toBe(TRANSFER_GAS);
    expect(cost.burntAmount).toBe(22_318_256_250_000_000_000n);
    // NEP-642: the receipt's gas is bought at min_gas_purchase_price (10^9), above the block's 10^8.
    expect(cost.receiptGasPrice).toBe(PURCHASE_PRICE);
    expect(cost.totalCost).toBe(NEAR + 22_318_256_250_000_000_000n + 223_182_562_500_000_000_000n);
  });

  it("buys receipt gas at the block's price when it is above min_gas_purchase_price", () => {
    const cost = transactionCost(P, ALICE, BOB, [{ type: "Transfer", deposit: NEAR }], 2n * PURCHASE_PRICE, EMPTY_ED25519_KEY);
    expect(cost.receiptGasPrice).toBe(2n * PURCHASE_PRICE);
    expect(cost.totalCost).toBe(NEAR + 2n * TRANSFER_GAS * 2n * PURCHASE_PRICE);
  });

  it("uses the not-SIR per-byte fee only when sender and receiver differ", () => {
    const fc: Action = { type: "FunctionCall", methodName: "abc", args: new Uint8Array(7), gas: 1n, deposit: 0n };
    expect(totalSendFees(P, true, [fc], ALICE)).toBe(200_000_000_000n + 2_235_934n * 10n);
    expect(totalSendFees(P, false, [fc], BOB)).toBe(200_000_000_000n + 47_683_715n * 10n);
    expect(execFee(P, fc, BOB)).toBe(780_000_000_000n + 2_235_934n * 10n);
    const addFc: Action = {
      type: "AddKey",
      publicKey: devKeyPair(ALICE).publicKey,
      accessKey: { nonce: 0n, permission: { FunctionCall: { allowance: null, receiverId: BOB, methodNames: ["a", "bc"] } } },
    };
    expect(execFee(P, addFc, ALICE)).toBe(102_217_625_000n + 1_925_331n * 5n); // names + a terminator each
  });
});

describe("receipt codec", () => {
  const id = fc.uint8Array({ minLength: 32, maxLength: 32 });
  const account = fc.constantFrom(ALICE, BOB, "system", "ab".repeat(32));
  const action: fc.Arbitrary<Action> = fc.oneof(
    fc.bigInt({ min: 0n, max: 2n ** 128n - 1n }).map((deposit): Action => ({ type: "Transfer", deposit })),
    fc.record({ methodName: fc.string({ maxLength: 10 }), args: fc.uint8Array({ maxLength: 20 }), gas: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), deposit: fc.bigInt({ min: 0n, max: 2n ** 128n - 1n }) }).map((a): Action => ({ type: "FunctionCall", ...a })),
    fc.constant<Action>({ type: "CreateAccount" }),
    account.map((beneficiaryId): Action => ({ type: "DeleteAccount", beneficiaryId })),
  );
  const receipt: fc.Arbitrary<Receipt> = fc.oneof(
    fc.record({
      predecessorId: account,
      receiverId: account,
      receiptId: id,
      body: fc.record({
        type: fc.constant("Action" as const),
        signerId: account,
        signerPublicKey: fc.constant(EMPTY_ED25519_KEY),
        gasPrice: fc.bigInt({ min: 0n, max: 10n ** 20n }),
        outputDataReceivers: fc.array(fc.record({ dataId: id, receiverId: account }), { maxLength: 2 }),
        inputDataIds: fc.array(id, { maxLength: 2 }),
        actions: fc.array(action, { maxLength: 3 }),
        isPromiseYield: fc.constant(true as const),
      }, { requiredKeys: ["type", "signerId", "signerPublicKey", "gasPrice", "outputDataReceivers", "inputDataIds", "actions"] }),
    }),
    fc.record({
      predecessorId: account,
      receiverId: account,
      receiptId: id,
      body: fc.record(
        { type: fc.constant("Data" as const), dataId: id, data: fc.option(fc.uint8Array({ maxLength: 20 }), { nil: null }), isPromiseResume: fc.constant(true as const) },
        { requiredKeys: ["type", "dataId", "data"] },
      ),
    }),
  );

  it("writes nearcore's ReceiptEnum tags: 0 Action, 1 Data, 2 PromiseYield, 3 PromiseResume", () => {
    const base = { predecessorId: ALICE, receiverId: ALICE, receiptId: new Uint8Array(32) };
    const tagOf = (r: Receipt) => encodeReceipt(r)[4 + ALICE.length + 4 + ALICE.length + 32];
    const action = { type: "Action" as const, signerId: ALICE, signerPublicKey: EMPTY_ED25519_KEY, gasPrice: 0n, outputDataReceivers: [], inputDataIds: [], actions: [] };
    expect(tagOf({ ...base, body: action })).toBe(0);
    expect(tagOf({ ...base, body: { type: "Data", dataId: new Uint8Array(32), data: null } })).toBe(1);
    expect(tagOf({ ...base, body: { ...action, isPromiseYield: true } })).toBe(2);
    expect(tagOf({ ...base, body: { type: "Data", dataId: new Uint8Array(32), data: null, isPromiseResume: true } })).toBe(3);
  });

  it("round-trips every receipt", () => {
    fc.assert(
      fc.property(receipt, (r) => {
        expect(decodeReceipt(encodeReceipt(r))).toEqual(r);
      }),
      { numRuns: 300 },
    );
  });
});

describe("StateUpdate", () => {
  it("commits, rolls back and lists keys over its base", () => {
    const store = new MemoryStateStore();
    const su = new StateUpdate(store.build(["a1", "a2", "b"], ["x", "y", "z"]));
    su.set("a3", "w");
    su.remove("a1");
    su.commit(MIGRATION);
    su.set("a4", "v");
    su.remove("a2");
    expect(su.keysWithPrefix("a")).toEqual(["a3", "a4"]);
    su.rollback();
    expect(su.keysWithPrefix("a")).toEqual(["a2", "a3"]);
    expect(su.get("a1")).toBeUndefined();
    expect(su.get("b")).toBe("z");
    expect(su.toChangeSet().toSorted()).toEqual({ keys: ["a1", "a3"], values: [null, "w"] });
  });

  it("reads each base key from the snapshot once, and every read sees the writes over it", () => {
    const base = new MemoryStateStore().build(["k", "m"], ["base-k", "base-m"]);
    const reads: string[] = [];
    const counting = { ...base, rootHash: base.rootHash, get: (key: string) => (reads.push(key), base.get(key)), scan: base.scan.bind(base), prove: base.prove.bind(base) };
    const su = new StateUpdate(counting);
    expect(su.get("k")).toBe("base-k");
    expect(su.get("absent")).toBeUndefined();
    su.set("k", "new");
    expect(su.get("k")).toBe("new");
    su.rollback();
    expect(su.get("k")).toBe("base-k");
    su.remove("k");
    expect(su.get("k")).toBeUndefined();
    su.commit(MIGRATION);
    expect(su.get("k")).toBeUndefined();
    expect(su.get("absent")).toBeUndefined();
    expect(su.get("m")).toBe("base-m");
    expect(su.get("m")).toBe("base-m");
    expect(reads).toEqual(["k", "absent", "m"]);
  });
});

describe("getFunctionCallAccessKey", () => {
  it("decodes function-call keys only, answering full-access and missing keys without decoding, as getAccessKey would", () => {
    const su = new StateUpdate(new MemoryStateStore().build([], []));
    const pk = devKeyPair("fc.test.near").publicKey;
    const full = devKeyPair("full.test.near").publicKey;
    const fcKey = { nonce: 5n, permission: { FunctionCall: { allowance: 7n, receiverId: BOB, methodNames: ["m"] } } } as const;
    setAccessKey(su, ALICE, pk, fcKey);
    setAccessKey(su, ALICE, full, { nonce: 2n ** 64n - 1n, permission: "FullAccess" });
    expect(getFunctionCallAccessKey(su, ALICE, pk)).toEqual(fcKey);
    expect(getAccessKey(su, ALICE, full)?.permission).toBe("FullAccess");
    expect(getFunctionCallAccessKey(su, ALICE, full)).toBeUndefined();
    expect(getFunctionCallAccessKey(su, BOB, pk)).toBeUndefined();
    // A full-access tag followed by stray bytes is no full-access record: it is decoded, and refused.
    su.set(accessKeyTrieKey(BOB, full), bytesToLatin1(new Uint8Array([...new Uint8Array(8), 1, 0])));
    expect(() => getAccessKey(su, BOB, full)).toThrow();
    expect(() => getFunctionCallAccessKey(su, BOB, full)).toThrow();
  });
});

describe("views", () => {
  it("show every change at the block that made it", async () => {
    const chain = await openChain();
    const before = chain.head();
    const hash = submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: NEAR }]);
    const txBlock = chain.produceBlock();
    const receiptBlock = chain.produceBlock();
    const key = devKeyPair(ALICE).publicKeyString;
    expect(chain.at(before).accessKey(ALICE, key)!.nonce).toBe(0n);
    expect(chain.at(txBlock).accessKey(ALICE, key)!.nonce).toBe(1n);
    // The receipt's gas is bought at the purchase price; the surplus comes back later.
    const cost = NEAR + TRANSFER_GAS * GAS_PRICE + TRANSFER_GAS * PURCHASE_PRICE;
    expect(chain.at(txBlock).account(ALICE)!.amount).toBe(chain.at(before).account(ALICE)!.amount - cost);
    expect(chain.at(txBlock).account(BOB)!.amount).toBe(chain.at(before).account(BOB)!.amount);
    expect(chain.at(receiptBlock).account(BOB)!.amount).toBe(chain.at(before).account(BOB)!.amount + NEAR);
    expect(chain.transactionStatus(hash)!.finalExecutionStatus).toBe("EXECUTED_OPTIMISTIC");
    // Each chunk's prev_state_root is the previous block's post-state.
    for (const c of receiptBlock.view.chunks) expect(c.prev_state_root).toBe(chain.at(txBlock).stateRoot(c.shard_id));
  });
});

describe("produceBlock", () => {
  it("leaves the chain untouched when applying a chunk throws", async () => {
    let broken = true;
    const chain = await openChain({
      functionCalls: (input) => {
        if (broken) throw new Error("vm bug");
        return { ok: true, returnData: { kind: "None" }, balance: input.account.amount, storageUsage: input.account.storageUsage, gasBurnt: 0n, gasUsed: 0n, logs: [], newReceipts: [] };
      },
    });
    const hash = submit(chain, ALICE, BOB, [{ type: "FunctionCall", methodName: "m", args: new Uint8Array(0), gas: 10n ** 12n, deposit: 0n }]);
    chain.produceBlock(); // tx included; the receipt waits for the next block
    const head = chain.head();
    expect(() => chain.produceBlock()).toThrow("vm bug");
    expect(chain.head()).toBe(head);
    broken = false;
    const s = settle(chain, hash);
    expect(s.outcome!.status).toEqual({ SuccessValue: "" });
  });
});
