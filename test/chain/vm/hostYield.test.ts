import { describe, expect, it } from "vitest";
import { CURRENT, E, P, U64_MAX, hostErrorOf, hostKit, u128 } from "./hostKit.js";

const F = P.fees;
const TGAS = 10n ** 12n;
const mem = (n: bigint) => E.read_memory_base + n * E.read_memory_byte;
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("promise_yield_create", () => {
  it("charges nearcore's fees in its order, prepays the callback's gas and writes the data id to the register", () => {
    const k = hostKit();
    const [ml, mp] = k.put(0, "on_resume");
    const [al, ap] = k.put(100, '{"a":1}');
    const before = { burnt: k.l.gas.burntGas, used: k.l.gas.usedGas };
    const idx = k.env.promise_yield_create(ml, mp, al, ap, 7n * TGAS, 0n, 5n);
    expect(idx).toBe(0n);
    const n = ml + al;
    const host = E.base + E.yield_create_base + mem(ml) + mem(al) + n * E.yield_create_byte + E.write_register_base + 32n * E.write_register_byte;
    // A receipt to itself with one input from itself, then the function call: all "sender is receiver".
    const send =
      F.actionReceiptCreation.sendSir + F.dataReceiptCreationBase.sendSir + F.dataReceiptCreationBase.execution + F.functionCallBase.sendSir + F.functionCallPerByte.sendSir * n;
    const exec = F.actionReceiptCreation.execution + F.functionCallBase.execution + F.functionCallPerByte.execution * n;
    expect(k.l.gas.burntGas - before.burnt).toBe(host + send);
    expect(k.l.gas.usedGas - before.used).toBe(host + send + exec + 7n * TGAS);
    const dataId = k.register(5n)!;
    expect(dataId).toHaveLength(32);
    expect(k.l.receipts.receipts).toEqual([
      {
        receiverId: CURRENT,
        inputDataIds: [dataId],
        outputDataReceivers: [],
        actions: [{ type: "FunctionCall", methodName: "on_resume", args: new TextEncoder().encode('{"a":1}'), deposit: 0n, gas: 7n * TGAS }],
        isPromiseYield: true,
      },
    ]);
    expect(k.yieldStatus.get(hex(dataId))).toBe("Yielded");
    // The profile names the yield costs.
    const profile = new Map(k.l.gas.gasProfile().map((e) => [e.cost, BigInt(e.gas_used)]));
    expect(profile.get("YIELD_CREATE_BASE")).toBe(E.yield_create_base);
    expect(profile.get("YIELD_CREATE_BYTE")).toBe(n * E.yield_create_byte);
  });

  it("a gas weight takes a share of the unused gas like function_call_weight", () => {
    const k = hostKit({ prepaidGas: 100n * TGAS });
    const [ml, mp] = k.put(0, "cb");
    k.env.promise_yield_create(ml, mp, 0n, 0n, TGAS, 1n, 0n);
    const unused = 100n * TGAS - k.l.gas.usedGas;
    expect(k.l.receipts.distributeUnusedGas(unused)).toBe(true);
    expect(k.l.receipts.receipts[0]!.actions[0]).toMatchObject({ gas: TGAS + unused });
  });

  it("refuses an empty method name, a bad UTF-8 name, a view call and more gas than is left", () => {
    expect(hostErrorOf(() => hostKit().env.promise_yield_create(0n, 0n, 0n, 0n, TGAS, 0n, 0n))).toEqual({ name: "EmptyMethodName" });
    const k = hostKit();
    const [bl, bp] = k.put(0, Uint8Array.of(0xff, 0xfe));
    expect(hostErrorOf(() => k.env.promise_yield_create(bl, bp, 0n, 0n, TGAS, 0n, 0n))).toEqual({ name: "InvalidMethodName" });
    const v = hostKit({ isView: true });
    expect(hostErrorOf(() => v.env.promise_yield_create(0n, 0n, 0n, 0n, 0n, 0n, 0n))).toEqual({
      name: "ProhibitedInView",
      fields: { method_name: "promise_yield_create" },
    });
    expect(v.l.gas.burntGas).toBe(E.base);
    const g = hostKit({ prepaidGas: 10n * TGAS });
    const [gl, gp] = g.put(0, "cb");
    expect(hostErrorOf(() => g.env.promise_yield_create(gl, gp, 0n, 0n, 20n * TGAS, 0n, 0n))).toEqual({ name: "GasExceeded" });
  });
});

describe("promise_yield_resume", () => {
  it("answers 1 for a yield still awaiting data (status ResumeInitiated, a PromiseResume queued), 0 for an unknown id", () => {
    const k = hostKit();
    const [ml, mp] = k.put(0, "cb");
    k.env.promise_yield_create(ml, mp, 0n, 0n, TGAS, 0n, 1n);
    const [pl, pp] = k.put(200, "payload");
    const before = k.l.gas.burntGas;
    expect(k.env.promise_yield_resume(U64_MAX, 1n, pl, pp)).toBe(1);
    const dataId = k.register(1n)!;
    expect(k.l.gas.burntGas - before).toBe(E.base + E.yield_resume_base + pl * E.yield_resume_byte + E.read_register_base + 32n * E.read_register_byte + mem(pl));
    expect(k.l.receipts.resumes).toEqual([{ dataId, data: new TextEncoder().encode("payload") }]);
    expect(k.yieldStatus.get(hex(dataId))).toBe("ResumeInitiated");
    // nearcore (status key present) answers 1 again and queues a second resume; the first one wins.
    expect(k.env.promise_yield_resume(U64_MAX, 1n, pl, pp)).toBe(1);
    expect(k.l.receipts.resumes).toHaveLength(2);
    const [il, ip] = k.put(400, new Uint8Array(32).fill(7));
    expect(k.env.promise_yield_resume(il, ip, pl, pp)).toBe(0);
    expect(k.l.receipts.resumes).toHaveLength(2);
  });

  it("checks the payload limit before the id, charges the length argument as given, and is prohibited in views", () => {
    const k = hostKit();
    const limit = P.wasm.maxYieldPayloadSize;
    const [il, ip] = k.put(0, new Uint8Array(32));
    expect(hostErrorOf(() => k.env.promise_yield_resume(5n, ip, limit + 1n, 100n))).toEqual({
      name: "YieldPayloadLength",
      fields: { length: limit + 1n, limit },
    });
    expect(hostErrorOf(() => k.env.promise_yield_resume(31n, ip, limit, 100n))).toEqual({ name: "DataIdMalformed" });
    expect(k.env.promise_yield_resume(il, ip, limit, 100n)).toBe(0);
    // A payload from a register: nearcore multiplies the per-byte fee by u64::MAX first.
    k.env.write_register(9n, 3n, 100n);
    expect(hostErrorOf(() => k.env.promise_yield_resume(il, ip, U64_MAX, 9n))).toEqual({ name: "IntegerOverflow" });
    const v = hostKit({ isView: true });
    expect(hostErrorOf(() => v.env.promise_yield_resume(il, ip, 0n, 0n))).toEqual({ name: "ProhibitedInView", fields: { method_name: "promise_submit_data" } });
  });
});

/** promise_yield_create_with_id("cb", "args", amount, 1 Tgas, weight 0, yieldId) over a fresh layout of memory. */
function createWithId(k: ReturnType<typeof hostKit>, yieldId: Uint8Array, amount = 0n) {
  const [ml, mp] = k.put(0, "cb");
  const [al, ap] = k.put(16, "args");
  const [, amp] = k.put(32, u128(amount));
  const [yl, yp] = k.put(64, yieldId);
  return k.env.promise_yield_create_with_id(ml, mp, al, ap, amp, TGAS, 0n, yl, yp) as bigint;
}
const id = (n: number) => new Uint8Array(32).fill(n);

describe("promise_yield_create_with_id (protocol 85 YieldWithId)", () => {
  it("charges yield_create_with_id_base (not yield_create_base), returns the promise index, keeps the id and attaches the deposit", () => {
    const k = hostKit({ accountBalance: 100n, attachedDeposit: 0n });
    const before = { burnt: k.l.gas.burntGas, used: k.l.gas.usedGas };
    expect(createWithId(k, id(1), 25n)).toBe(0n);
    const n = 2n + 4n;
    // No register write: the contract chose the id.
    const host = E.base + E.yield_create_with_id_base + mem(16n) + mem(2n) + mem(4n) + mem(32n) + n * E.yield_create_byte;
    const send =
      F.actionReceiptCreation.sendSir + F.dataReceiptCreationBase.sendSir + F.dataReceiptCreationBase.execution + F.functionCallBase.sendSir + F.functionCallPerByte.sendSir * n;
    const exec = F.actionReceiptCreation.execution + F.functionCallBase.execution + F.functionCallPerByte.execution * n;
    expect(k.l.gas.burntGas - before.burnt).toBe(host + send);
    expect(k.l.gas.usedGas - before.used).toBe(host + send + exec + TGAS);
    const dataId = k.yieldIds.get(hex(id(1)))!;
    expect(dataId).toHaveLength(32);
    expect(k.l.receipts.receipts).toEqual([
      {
        receiverId: CURRENT,
        inputDataIds: [dataId],
        outputDataReceivers: [],
        actions: [{ type: "FunctionCall", methodName: "cb", args: new TextEncoder().encode("args"), deposit: 25n, gas: TGAS }],
        isPromiseYield: true,
      },
    ]);
    expect(k.yieldStatus.get(hex(dataId))).toBe("Yielded");
    expect(k.l.balance).toBe(75n);
    expect(k.l.subsidizedAmount).toBe(0n);
    expect(new Map(k.l.gas.gasProfile().map((e) => [e.cost, BigInt(e.gas_used)])).get("YIELD_CREATE_WITH_ID_BASE")).toBe(290_000_000_000n);
  });

  it("answers u64::MAX for an id still pending, having charged only the host costs, and makes no receipt", () => {
    const k = hostKit();
    createWithId(k, id(1));
    const before = { burnt: k.l.gas.burntGas, used: k.l.gas.usedGas };
    expect(createWithId(k, id(1))).toBe(U64_MAX);
    const host = E.base + E.yield_create_with_id_base + mem(16n) + mem(2n) + mem(4n) + mem(32n) + 6n * E.yield_create_byte;
    expect(k.l.gas.burntGas - before.burnt).toBe(host);
    expect(k.l.gas.usedGas - before.used).toBe(host);
    expect(k.l.receipts.receipts).toHaveLength(1);
    // Another id is another yield.
    expect(createWithId(k, id(2))).toBe(1n);
  });

  it("refuses a malformed id, an empty method name and a view call, as nearcore's logic tests", () => {
    const k = hostKit();
    expect(hostErrorOf(() => createWithId(k, new Uint8Array(16)))).toEqual({ name: "YieldIdMalformed" });
    const [al, ap] = k.put(16, "args");
    const [yl, yp] = k.put(64, id(1));
    expect(hostErrorOf(() => k.env.promise_yield_create_with_id(0n, 0n, al, ap, 32n, 0n, 1n, yl, yp))).toEqual({ name: "EmptyMethodName" });
    const v = hostKit({ isView: true });
    expect(hostErrorOf(() => createWithId(v, id(1)))).toEqual({ name: "ProhibitedInView", fields: { method_name: "promise_yield_create_with_id" } });
    expect(v.l.gas.burntGas).toBe(E.base);
  });

  it("deducts the deposit from the balance; 1 yoctoNEAR on a zero balance is subsidized (one_yocto_on_promise), 2 are not", () => {
    // nearcore runtime/near-vm-runner/src/logic/tests (yield_create_with_id balance tests).
    const short = hostKit({ accountBalance: 10n, attachedDeposit: 0n });
    expect(hostErrorOf(() => createWithId(short, id(1), 100n))).toEqual({ name: "BalanceExceeded" });
    expect(short.l.balance).toBe(10n);
    const zero = hostKit({ accountBalance: 0n, attachedDeposit: 0n });
    createWithId(zero, id(1), 0n);
    expect(zero.l.subsidizedAmount).toBe(0n);
    createWithId(zero, id(2), 1n);
    expect(zero.l.balance).toBe(0n);
    expect(zero.l.subsidizedAmount).toBe(1n);
    expect(hostErrorOf(() => createWithId(zero, id(3), 2n))).toEqual({ name: "BalanceExceeded" });
    const one = hostKit({ accountBalance: 1n, attachedDeposit: 0n });
    createWithId(one, id(1), 1n);
    expect(one.l.balance).toBe(0n);
    expect(one.l.subsidizedAmount).toBe(0n);
  });
});

describe("promise_yield_resume_with_yield_id", () => {
  it("resumes the data id the yield id stands for (1), answers 0 for an unknown id, charges as promise_yield_resume", () => {
    const k = hostKit();
    createWithId(k, id(1));
    const dataId = k.yieldIds.get(hex(id(1)))!;
    const [yl, yp] = k.put(200, id(1));
    const [pl, pp] = k.put(300, "payload");
    const before = k.l.gas.burntGas;
    expect(k.env.promise_yield_resume_with_yield_id(yl, yp, pl, pp)).toBe(1);
    expect(k.l.gas.burntGas - before).toBe(E.base + E.yield_resume_base + pl * E.yield_resume_byte + mem(32n) + mem(pl));
    expect(k.l.receipts.resumes).toEqual([{ dataId, data: new TextEncoder().encode("payload") }]);
    expect(k.yieldStatus.get(hex(dataId))).toBe("ResumeInitiated");
    const [ul, up] = k.put(400, id(9));
    expect(k.env.promise_yield_resume_with_yield_id(ul, up, pl, pp)).toBe(0);
    expect(k.l.receipts.resumes).toHaveLength(1);
  });

  it("refuses a malformed id (after the payload limit) and a view call", () => {
    const k = hostKit();
    const limit = P.wasm.maxYieldPayloadSize;
    const [, ip] = k.put(0, id(1));
    expect(hostErrorOf(() => k.env.promise_yield_resume_with_yield_id(16n, ip, limit + 1n, 100n))).toMatchObject({ name: "YieldPayloadLength" });
    expect(hostErrorOf(() => k.env.promise_yield_resume_with_yield_id(16n, ip, 3n, 100n))).toEqual({ name: "YieldIdMalformed" });
    const v = hostKit({ isView: true });
    expect(hostErrorOf(() => v.env.promise_yield_resume_with_yield_id(32n, ip, 0n, 0n))).toEqual({
      name: "ProhibitedInView",
      fields: { method_name: "promise_yield_resume_with_yield_id" },
    });
  });
});

describe("one_yocto_on_promise (protocol 85)", () => {
  it("a promise function call with 1 yoctoNEAR from a zero balance is subsidized; a transfer or any other amount is not", () => {
    const k = hostKit({ accountBalance: 0n, attachedDeposit: 0n });
    const [al, ap] = k.put(0, "bob.test.near");
    const [ml, mp] = k.put(32, "ft_transfer");
    const [, one] = k.put(64, u128(1n));
    const [, two] = k.put(96, u128(2n));
    const p = k.env.promise_batch_create(al, ap);
    k.env.promise_batch_action_function_call(p, ml, mp, 0n, 0n, one, TGAS);
    k.env.promise_create(al, ap, ml, mp, 0n, 0n, one, TGAS);
    expect(k.l.subsidizedAmount).toBe(2n);
    expect(k.l.balance).toBe(0n);
    expect(k.l.receipts.receipts.map((r) => r.actions[0])).toMatchObject([{ deposit: 1n }, { deposit: 1n }]);
    expect(hostErrorOf(() => k.env.promise_batch_action_function_call(p, ml, mp, 0n, 0n, two, TGAS))).toEqual({ name: "BalanceExceeded" });
    expect(hostErrorOf(() => k.env.promise_batch_action_transfer(p, one))).toEqual({ name: "BalanceExceeded" });
  });
});
