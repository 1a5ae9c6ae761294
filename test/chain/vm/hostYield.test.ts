import { describe, expect, it } from "vitest";
import { CURRENT, E, P, U64_MAX, hostErrorOf, hostKit } from "./hostKit.js";

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
