import { describe, expect, it } from "vitest";
import { accountStateValue, decodeAccount, encodeAccount, storageUsageOfStored, type Account } from "../../../src/chain/primitives/account.js";
import { decodeReceipt, encodeReceipt } from "../../../src/chain/runtime/receiptCodec.js";
import type { Receipt } from "../../../src/chain/runtime/receipt.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const u128 = (v: bigint) => Buffer.from(Array.from({ length: 16 }, (_, i) => Number((v >> BigInt(8 * i)) & 0xffn))).toString("hex");
const HASH = new Uint8Array(32).fill(7);

describe("Account V2 (nearcore core/primitives-core account.rs)", () => {
  it("is u128::MAX ‖ tag 0 ‖ amount ‖ locked ‖ storage_usage ‖ AccountContract, and decodes back", () => {
    const byHash: Account = { amount: 5n, locked: 1n, codeHash: new Uint8Array(32), storageUsage: 214, globalContract: { kind: "CodeHash", codeHash: HASH } };
    expect(hex(encodeAccount(byHash))).toBe("ff".repeat(16) + "00" + u128(5n) + u128(1n) + "d600000000000000" + "02" + "07".repeat(32));
    expect(decodeAccount(encodeAccount(byHash))).toEqual({ ...byHash, v2: true });
    const byAccount: Account = { amount: 5n, locked: 0n, codeHash: new Uint8Array(32), storageUsage: 9, globalContract: { kind: "AccountId", accountId: "a.near" } };
    expect(hex(encodeAccount(byAccount)).slice(-22)).toBe("03" + "06000000" + Buffer.from("a.near").toString("hex"));
    expect(decodeAccount(encodeAccount(byAccount))).toEqual({ ...byAccount, v2: true });
    // Once V2, a local deploy stays V2 with Local(hash), as nearcore's set_contract does.
    const local: Account = { amount: 5n, locked: 0n, codeHash: HASH, storageUsage: 9, v2: true };
    expect(hex(encodeAccount(local)).slice(-66)).toBe("01" + "07".repeat(32));
    expect(decodeAccount(encodeAccount(local))).toEqual(local);
  });

  it("keeps V1 (72 bytes, no tag) for accounts that never used a global contract; storage usage reads from either", () => {
    const v1: Account = { amount: 3n, locked: 0n, codeHash: HASH, storageUsage: 182 };
    expect(encodeAccount(v1).length).toBe(72);
    expect(storageUsageOfStored(accountStateValue(v1))).toBe(182);
    expect(storageUsageOfStored(accountStateValue({ ...v1, globalContract: { kind: "AccountId", accountId: "x.near" } }))).toBe(182);
  });
});

describe("GlobalContractDistribution receipts in state", () => {
  it("round-trip through the receipt codec", () => {
    const r: Receipt = {
      predecessorId: "alice.near",
      receiverId: "system",
      receiptId: new Uint8Array(32).fill(1),
      body: { type: "GlobalContractDistribution", id: { kind: "AccountId", accountId: "alice.near" }, targetShard: 2, alreadyDeliveredShards: [0, 1], code: new Uint8Array([0, 97, 115, 109]), nonce: 3n },
    };
    expect(decodeReceipt(encodeReceipt(r))).toEqual(r);
    const byHash: Receipt = { ...r, body: { ...r.body, id: { kind: "CodeHash", codeHash: HASH } } as Receipt["body"] };
    expect(decodeReceipt(encodeReceipt(byHash))).toEqual(byHash);
  });
});
