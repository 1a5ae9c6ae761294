import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeAccessKey, encodeAccessKey, type AccessKey } from "@shardkit/primitives/accessKey";
import { accountStateValue, decodeAccount, encodeAccount } from "../../../src/chain/primitives/account.js";
import { BorshError, BorshReader } from "@shardkit/primitives/borshReader";
import { BorshWriter } from "@shardkit/primitives/borshWriter";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("borsh records", () => {
  it("encodes an account as amount u128 ‖ locked u128 ‖ code_hash ‖ storage_usage u64 (72 bytes)", () => {
    const codeHash = new Uint8Array(32).fill(7);
    const bytes = encodeAccount({ amount: 10n ** 24n, locked: 1n, codeHash, storageUsage: 182 });
    expect(bytes.length).toBe(72);
    expect(hex(bytes.slice(0, 16))).toBe("000000a1edccce1bc2d3000000000000");
    expect(hex(bytes.slice(16, 32))).toBe("01" + "00".repeat(15));
    expect(hex(bytes.slice(64))).toBe("b600000000000000");
    expect(decodeAccount(bytes)).toEqual({ amount: 10n ** 24n, locked: 1n, codeHash, storageUsage: 182 });
  });

  it("round-trips accounts at the edges of their ranges, and the state value is the same bytes as latin1 (property)", () => {
    const account = fc.record({
      // u128::MAX itself is nearcore's AccountV2 sentinel: no V1 account holds it.
      amount: fc.bigInt({ min: 0n, max: 2n ** 128n - 2n }),
      locked: fc.bigInt({ min: 0n, max: 2n ** 128n - 1n }),
      codeHash: fc.uint8Array({ minLength: 32, maxLength: 32 }),
      storageUsage: fc.oneof(fc.nat(), fc.constantFrom(2 ** 32 - 1, 2 ** 32, Number.MAX_SAFE_INTEGER)),
    });
    fc.assert(
      fc.property(account, (a) => {
        const bytes = encodeAccount(a);
        expect(decodeAccount(bytes)).toEqual(a);
        expect(Buffer.from(accountStateValue(a), "latin1")).toEqual(Buffer.from(bytes));
      }),
    );
    // Each encoding is its own array, not a view of a reused buffer.
    const first = encodeAccount({ amount: 1n, locked: 0n, codeHash: new Uint8Array(32), storageUsage: 1 });
    encodeAccount({ amount: 2n, locked: 0n, codeHash: new Uint8Array(32), storageUsage: 2 });
    expect(decodeAccount(first).amount).toBe(1n);
  });

  it("rejects accounts it cannot encode", () => {
    const ok = { amount: 0n, locked: 0n, codeHash: new Uint8Array(32), storageUsage: 0 };
    expect(() => encodeAccount({ ...ok, amount: -1n })).toThrow(RangeError);
    expect(() => encodeAccount({ ...ok, locked: 2n ** 128n })).toThrow(RangeError);
    expect(() => encodeAccount({ ...ok, codeHash: new Uint8Array(31) })).toThrow(/32 bytes/);
    expect(() => accountStateValue({ ...ok, storageUsage: -1 })).toThrow(RangeError);
    expect(() => accountStateValue({ ...ok, storageUsage: 1.5 })).toThrow(RangeError);
  });

  it("encodes access keys: FullAccess = nonce ‖ 0x01 (9 bytes); FunctionCall = nonce ‖ 0x00 ‖ option ‖ receiver ‖ methods", () => {
    expect(hex(encodeAccessKey({ nonce: 5n, permission: "FullAccess" }))).toBe("050000000000000001");
    const fc1: AccessKey = { nonce: 0n, permission: { FunctionCall: { allowance: null, receiverId: "ab", methodNames: ["m"] } } };
    expect(hex(encodeAccessKey(fc1))).toBe("0000000000000000" + "00" + "00" + "020000006162" + "01000000" + "010000006d");
    const fc2: AccessKey = { nonce: 1n, permission: { FunctionCall: { allowance: 250n, receiverId: "app.near", methodNames: [] } } };
    expect(decodeAccessKey(encodeAccessKey(fc2))).toEqual(fc2);
  });

  it("round-trips access keys (property)", () => {
    const ak = fc.record({
      nonce: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
      permission: fc.oneof(
        fc.constant("FullAccess" as const),
        fc.record({
          FunctionCall: fc.record({
            allowance: fc.option(fc.bigInt({ min: 0n, max: 2n ** 128n - 1n }), { nil: null }),
            receiverId: fc.string(),
            methodNames: fc.array(fc.string(), { maxLength: 3 }),
          }),
        }),
      ),
    });
    fc.assert(
      fc.property(ak, (k) => {
        expect(decodeAccessKey(encodeAccessKey(k))).toEqual(k);
      }),
    );
  });

  it("rejects truncated, trailing and out-of-range data", () => {
    expect(() => decodeAccount(new Uint8Array(79))).toThrow(BorshError);
    expect(() => decodeAccessKey(Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 1, 0))).toThrow(/trailing/);
    // Tags 2 and 3 are gas keys (NEP-611); 4 is no permission.
    expect(() => decodeAccessKey(Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 4))).toThrow(/permission tag 4/);
    expect(() => new BorshWriter().u128(-1n)).toThrow(RangeError);
    expect(() => new BorshWriter().u64(2n ** 64n)).toThrow(RangeError);
    expect(() => new BorshReader(Uint8Array.of(2)).bool()).toThrow(/invalid bool/);
  });
});
