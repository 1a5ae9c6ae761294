import { describe, expect, it } from "vitest";
import { DEFAULT_CONTEXT, E, P, hostErrorOf, hostKit, u128 } from "./hostKit.js";

const F = P.fees;
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const mem = (n: bigint): bigint => E.read_memory_base + n * E.read_memory_byte;
const reg = (n: bigint): bigint => E.read_register_base + n * E.read_register_byte;

/*
 * NEP-616 host functions, after nearcore's logic tests `test_promise_batch_action_state_init`:
 * the same calls, ext costs and action fees (send burnt now, execution reserved), at protocol 85's
 * parameter values.
 */
describe("promise_batch_action_state_init*, set_state_init_data_entry", () => {
  it("by account id: the action with the deposit, then entries from memory and from registers", () => {
    const k = hostKit();
    const receiver = "rick.test.near";
    const [rl, rp] = k.put(0, receiver);
    const p = k.env.promise_batch_create(rl, rp);
    const [al, ap] = k.put(100, "global.test.near");
    const [, amountPtr] = k.put(200, u128(110n));
    const [kl, kp] = k.put(300, "key");
    const [vl, vp] = k.put(400, "value");
    k.l.writeRegister(0n, utf8("key2"));
    k.l.writeRegister(1n, utf8("value2"));

    let before = { burnt: k.l.gas.burntGas, used: k.l.gas.usedGas };
    const action = k.env.promise_batch_action_state_init_by_account_id(p, al, ap, amountPtr);
    expect(action).toBe(0n);
    const host = E.base + mem(al) + E.utf8_decoding_base + al * E.utf8_decoding_byte + mem(16n);
    expect(k.l.gas.burntGas - before.burnt).toBe(host + F.deterministicStateInitBase.sendNotSir);
    expect(k.l.gas.usedGas - before.used).toBe(host + F.deterministicStateInitBase.sendNotSir + F.deterministicStateInitBase.execution);
    expect(k.l.balance).toBe(DEFAULT_CONTEXT.accountBalance + DEFAULT_CONTEXT.attachedDeposit - 110n);

    before = { burnt: k.l.gas.burntGas, used: k.l.gas.usedGas };
    k.env.set_state_init_data_entry(p, action, kl, kp, vl, vp);
    const entry = (bytes: bigint) => ({
      send: F.deterministicStateInitPerEntry.sendNotSir + F.deterministicStateInitPerByte.sendNotSir * bytes,
      exec: F.deterministicStateInitPerEntry.execution + F.deterministicStateInitPerByte.execution * bytes,
    });
    expect(k.l.gas.burntGas - before.burnt).toBe(E.base + mem(kl) + mem(vl) + entry(8n).send);
    expect(k.l.gas.usedGas - before.used).toBe(E.base + mem(kl) + mem(vl) + entry(8n).send + entry(8n).exec);

    before = { burnt: k.l.gas.burntGas, used: k.l.gas.usedGas };
    k.env.set_state_init_data_entry(p, action, 2n ** 64n - 1n, 0n, 2n ** 64n - 1n, 1n);
    expect(k.l.gas.burntGas - before.burnt).toBe(E.base + reg(4n) + reg(6n) + entry(10n).send);
    // 18 bytes in all at 72 Mgas each, as nearcore's profile shows (1,296,000,000).
    expect(F.deterministicStateInitPerByte.sendNotSir * 18n).toBe(1_296_000_000n);

    expect(k.l.receipts.receipts[0]!.actions).toEqual([
      {
        type: "DeterministicStateInit",
        stateInit: { version: "V1", code: { kind: "AccountId", accountId: "global.test.near" }, data: [[utf8("key"), utf8("value")], [utf8("key2"), utf8("value2")]] },
        deposit: 110n,
      },
    ]);
  });

  it("by code hash; entries stay in key order and a key set twice keeps the last value", () => {
    const k = hostKit();
    const [rl, rp] = k.put(0, "contract.test.near");
    const p = k.env.promise_batch_create(rl, rp);
    const hash = new Uint8Array(32).fill(4);
    const [hl, hp] = k.put(100, hash);
    const [, amountPtr] = k.put(200, u128(0n));
    const before = k.l.gas.burntGas;
    const action = k.env.promise_batch_action_state_init(p, hl, hp, amountPtr);
    // The receiver is the current account: sender-is-receiver fees.
    expect(k.l.gas.burntGas - before).toBe(E.base + mem(32n) + mem(16n) + F.deterministicStateInitBase.sendSir);
    const [bl, bp] = k.put(300, "b");
    const [al, ap] = k.put(310, "a");
    const [v1l, v1p] = k.put(320, "1");
    const [v2l, v2p] = k.put(330, "2");
    k.env.set_state_init_data_entry(p, action, bl, bp, v1l, v1p);
    k.env.set_state_init_data_entry(p, action, al, ap, v1l, v1p);
    k.env.set_state_init_data_entry(p, action, bl, bp, v2l, v2p);
    expect(k.l.receipts.receipts[0]!.actions[0]).toEqual({
      type: "DeterministicStateInit",
      stateInit: { version: "V1", code: { kind: "CodeHash", codeHash: hash }, data: [[utf8("a"), utf8("1")], [utf8("b"), utf8("2")]] },
      deposit: 0n,
    });
  });

  it("errors: malformed hash, bad account id, balance, joint promise, an index that is no state init, views", () => {
    const k = hostKit();
    const [rl, rp] = k.put(0, "other.test.near");
    const p = k.env.promise_batch_create(rl, rp);
    const [hl, hp] = k.put(100, new Uint8Array(32));
    const [, zero] = k.put(200, u128(0n));
    const [, tooMuch] = k.put(220, u128(10n ** 30n));
    expect(hostErrorOf(() => k.env.promise_batch_action_state_init(p, 31n, hp, zero))).toEqual({ name: "ContractCodeHashMalformed" });
    const [bl, bp] = k.put(300, "Bad Id");
    expect(hostErrorOf(() => k.env.promise_batch_action_state_init_by_account_id(p, bl, bp, zero))).toEqual({ name: "InvalidAccountId" });
    expect(hostErrorOf(() => k.env.promise_batch_action_state_init(p, hl, hp, tooMuch))).toEqual({ name: "BalanceExceeded" });
    expect(hostErrorOf(() => k.env.promise_batch_action_state_init(7n, hl, hp, zero))).toEqual({ name: "InvalidPromiseIndex", fields: { promise_idx: 7n } });
    const ids = Buffer.alloc(8);
    ids.writeBigUInt64LE(p, 0);
    const [, ip] = k.put(400, ids);
    const joint = k.env.promise_and(ip, 1n);
    expect(hostErrorOf(() => k.env.promise_batch_action_state_init(joint, hl, hp, zero))).toEqual({ name: "CannotAppendActionToJointPromise" });
    k.env.promise_batch_action_create_account(p);
    expect(hostErrorOf(() => k.env.set_state_init_data_entry(p, 0n, hl, hp, hl, hp))).toEqual({ name: "InvalidActionIndex", fields: { action_index: 0n } });
    expect(hostErrorOf(() => k.env.set_state_init_data_entry(p, 5n, hl, hp, hl, hp))).toEqual({ name: "InvalidActionIndex", fields: { action_index: 5n } });
    const v = hostKit({ isView: true });
    for (const [name, call] of [
      ["promise_batch_action_state_init", () => v.env.promise_batch_action_state_init(0n, 0n, 0n, 0n)],
      ["promise_batch_action_state_init_by_account_id", () => v.env.promise_batch_action_state_init_by_account_id(0n, 0n, 0n, 0n)],
      ["set_state_init_data_entry", () => v.env.set_state_init_data_entry(0n, 0n, 0n, 0n, 0n, 0n)],
    ] as const) {
      expect(hostErrorOf(call)).toEqual({ name: "ProhibitedInView", fields: { method_name: name } });
    }
  });
});
