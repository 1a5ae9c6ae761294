import { describe, expect, it } from "vitest";
import { ReceiptManager } from "../../../src/chain/vm/ReceiptManager.js";
import { CURRENT, DEFAULT_CONTEXT, E, P, U64_MAX, hostErrorOf, hostKit, u128 } from "./hostKit.js";

const F = P.fees;
const TGAS = 10n ** 12n;

function withCall(k: ReturnType<typeof hostKit>, receiver: string, deposit = 0n) {
  const [al, ap] = k.put(0, receiver);
  const [ml, mp] = k.put(100, "go");
  const [gl, gp] = k.put(200, "{}");
  k.put(300, u128(deposit));
  return { al, ap, ml, mp, gl, gp, amount: 300n };
}

describe("promises", () => {
  it("promise_create: receipt and function-call fees burnt (send) and reserved (exec + attached gas)", () => {
    const k = hostKit();
    const c = withCall(k, "other.test.near", 3n);
    const burnt0 = k.l.gas.burntGas;
    const idx = k.env.promise_create(c.al, c.ap, c.ml, c.mp, c.gl, c.gp, c.amount, 10n * TGAS);
    expect(idx).toBe(0n);
    const mem = (n: bigint) => E.read_memory_base + n * E.read_memory_byte;
    const host = 2n * E.base + mem(c.al) + E.utf8_decoding_base + c.al * E.utf8_decoding_byte + mem(16n) + mem(c.ml) + mem(c.gl);
    const send = F.actionReceiptCreation.sendNotSir + F.functionCallBase.sendNotSir + F.functionCallPerByte.sendNotSir * 4n;
    const exec = F.actionReceiptCreation.execution + F.functionCallBase.execution + F.functionCallPerByte.execution * 4n;
    expect(k.l.gas.burntGas - burnt0).toBe(host + send);
    expect(k.l.gas.usedGas - k.l.gas.burntGas).toBe(exec + 10n * TGAS);
    expect(k.l.balance).toBe(DEFAULT_CONTEXT.accountBalance + DEFAULT_CONTEXT.attachedDeposit - 3n);
    expect(k.l.receipts.receipts).toEqual([
      {
        receiverId: "other.test.near",
        inputDataIds: [],
        outputDataReceivers: [],
        actions: [{ type: "FunctionCall", methodName: "go", args: new TextEncoder().encode("{}"), deposit: 3n, gas: 10n * TGAS }],
      },
    ]);
  });

  it("promise_then wires a fresh data id from the dependency to the callback; sir fees for the current account", () => {
    const k = hostKit();
    const c = withCall(k, "other.test.near");
    const first = k.env.promise_create(c.al, c.ap, c.ml, c.mp, c.gl, c.gp, c.amount, TGAS);
    const [sl, sp] = k.put(400, CURRENT);
    const before = { burnt: k.l.gas.burntGas, used: k.l.gas.usedGas };
    const then = k.env.promise_then(first, sl, sp, c.ml, c.mp, c.gl, c.gp, c.amount, TGAS);
    expect(then).toBe(1n);
    const [a, b] = k.l.receipts.receipts;
    expect(a!.outputDataReceivers).toEqual([{ dataId: b!.inputDataIds[0], receiverId: CURRENT }]);
    const sendThen = F.actionReceiptCreation.sendSir + F.dataReceiptCreationBase.sendNotSir + F.dataReceiptCreationBase.execution;
    const sendCall = F.functionCallBase.sendSir + F.functionCallPerByte.sendSir * 4n;
    const mem = (n: bigint) => E.read_memory_base + n * E.read_memory_byte;
    const host = 2n * E.base + mem(sl) + E.utf8_decoding_base + sl * E.utf8_decoding_byte + mem(16n) + mem(c.ml) + mem(c.gl);
    expect(k.l.gas.burntGas - before.burnt).toBe(host + sendThen + sendCall);
    const execs = F.actionReceiptCreation.execution + F.functionCallBase.execution + F.functionCallPerByte.execution * 4n + TGAS;
    expect(k.l.gas.usedGas - before.used).toBe(host + sendThen + sendCall + execs);
  });

  it("promise_and joins receipts; joint promises take no actions and cannot be returned", () => {
    const k = hostKit();
    const c = withCall(k, "other.test.near");
    const p0 = k.env.promise_create(c.al, c.ap, c.ml, c.mp, c.gl, c.gp, c.amount, TGAS);
    const p1 = k.env.promise_create(c.al, c.ap, c.ml, c.mp, c.gl, c.gp, c.amount, TGAS);
    k.put(500, Buffer.concat([Buffer.from(new BigUint64Array([p0, p1]).buffer)]));
    const before = k.l.gas.burntGas;
    const joint = k.env.promise_and(500n, 2n);
    expect(k.l.gas.burntGas - before).toBe(E.base + E.promise_and_base + 16n * E.promise_and_per_promise + E.read_memory_base + 16n * E.read_memory_byte);
    expect(k.l.promises[Number(joint)]).toEqual({ joint: [0, 1] });
    expect(hostErrorOf(() => k.env.promise_batch_action_transfer(joint, c.amount))).toEqual({ name: "CannotAppendActionToJointPromise" });
    expect(hostErrorOf(() => k.env.promise_return(joint))).toEqual({ name: "CannotReturnJointPromise" });
    const cb = k.env.promise_batch_then(joint, c.al, c.ap);
    expect(k.l.promises[Number(cb)]).toEqual({ receipt: 2 }); // promise index 3, receipt index 2
    expect(k.l.receipts.receipts[2]!.inputDataIds).toHaveLength(2);
    k.env.promise_return(cb);
    expect(k.l.returnData).toEqual({ kind: "ReceiptIndex", index: 2 });
    k.put(600, Buffer.from(new BigUint64Array([9n]).buffer));
    expect(hostErrorOf(() => k.env.promise_and(600n, 1n))).toEqual({ name: "InvalidPromiseIndex", fields: { promise_idx: 9n } });
  });

  it("batch actions: every kind lands on the receipt; bad keys, names and balances fail as in nearcore", () => {
    const k = hostKit();
    const c = withCall(k, "new.contract.test.near");
    const p = k.env.promise_batch_create(c.al, c.ap);
    k.env.promise_batch_action_create_account(p);
    k.put(1000, u128(2n));
    k.env.promise_batch_action_transfer(p, 1000n);
    const key = Uint8Array.of(0, ...new Uint8Array(32).fill(4));
    const [kl, kp] = k.put(1100, key);
    k.env.promise_batch_action_add_key_with_full_access(p, kl, kp, 0n);
    const [rl, rp] = k.put(1200, "app.test.near");
    const [nl, np] = k.put(1300, "a,bc");
    k.env.promise_batch_action_add_key_with_function_call(p, kl, kp, 1n, 1000n, rl, rp, nl, np);
    k.env.promise_batch_action_deploy_contract(p, 4n, 1300n);
    k.env.promise_batch_action_stake(p, 1000n, kl, kp);
    k.env.promise_batch_action_delete_key(p, kl, kp);
    k.env.promise_batch_action_delete_account(p, rl, rp);
    k.env.promise_batch_action_function_call_weight(p, c.ml, c.mp, c.gl, c.gp, c.amount, 0n, 1n);
    const actions = k.l.receipts.receipts[0]!.actions.map((a) => a.type);
    expect(actions).toEqual(["CreateAccount", "Transfer", "AddKey", "AddKey", "DeployContract", "Stake", "DeleteKey", "DeleteAccount", "FunctionCall"]);
    expect(k.l.receipts.receipts[0]!.actions[3]).toMatchObject({
      accessKey: { nonce: 1n, permission: { FunctionCall: { allowance: 2n, receiverId: "app.test.near", methodNames: ["a", "bc"] } } },
    });
    k.put(1400, Uint8Array.of(7, 1, 2));
    expect(hostErrorOf(() => k.env.promise_batch_action_delete_key(p, 3n, 1400n))).toEqual({ name: "InvalidPublicKey" });
    k.put(1500, "a,,b");
    expect(hostErrorOf(() => k.env.promise_batch_action_add_key_with_function_call(p, kl, kp, 1n, 1000n, rl, rp, 4n, 1500n))).toEqual({ name: "EmptyMethodName" });
    k.put(1550, Uint8Array.of(0x61, 0xff));
    expect(hostErrorOf(() => k.env.promise_batch_action_add_key_with_function_call(p, kl, kp, 1n, 1000n, rl, rp, 2n, 1550n))).toEqual({ name: "InvalidMethodName" });
    expect(hostErrorOf(() => k.env.promise_batch_action_function_call(p, 2n, 1550n, 0n, 0n, c.amount, 0n))).toEqual({ name: "InvalidMethodName" });
    k.put(1600, u128(10n ** 30n));
    expect(hostErrorOf(() => k.env.promise_batch_action_transfer(p, 1600n))).toEqual({ name: "BalanceExceeded" });
    expect(hostErrorOf(() => k.env.promise_batch_action_function_call(p, 0n, 0n, 0n, 0n, c.amount, 0n))).toEqual({ name: "EmptyMethodName" });
    expect(hostErrorOf(() => k.env.promise_batch_action_create_account(7n))).toEqual({ name: "InvalidPromiseIndex", fields: { promise_idx: 7n } });
    const [bl, bp] = k.put(1700, "Bad Id");
    expect(hostErrorOf(() => k.env.promise_batch_create(bl, bp))).toEqual({ name: "InvalidAccountId" });
  });

  it("global contracts: deploy by code hash or account id, use by code hash or account id, with nearcore's fees and errors", () => {
    const k = hostKit();
    const [al, ap] = k.put(0, "other.test.near");
    const p = k.env.promise_batch_create(al, ap);
    const code = new TextEncoder().encode("\0asm-code");
    const [cl, cp] = k.put(100, code);
    const before = { burnt: k.l.gas.burntGas, used: k.l.gas.usedGas };
    k.env.promise_batch_action_deploy_global_contract(p, cl, cp);
    const mem = (n: bigint) => E.read_memory_base + n * E.read_memory_byte;
    const n = BigInt(code.length);
    const send = F.deployGlobalContractBase.sendNotSir + F.deployGlobalContractPerByte.sendNotSir * n;
    const exec = F.deployGlobalContractBase.execution + F.deployGlobalContractPerByte.execution * n;
    expect(k.l.gas.burntGas - before.burnt).toBe(E.base + mem(n) + send);
    expect(k.l.gas.usedGas - before.used).toBe(E.base + mem(n) + send + exec);
    k.env.promise_batch_action_deploy_global_contract_by_account_id(p, cl, cp);
    const hash = new Uint8Array(32).fill(9);
    const [hl, hp] = k.put(200, hash);
    const burnt = k.l.gas.burntGas;
    k.env.promise_batch_action_use_global_contract(p, hl, hp);
    expect(k.l.gas.burntGas - burnt).toBe(E.base + mem(32n) + F.useGlobalContractBase.sendNotSir + F.useGlobalContractPerIdentifierByte.sendNotSir * 32n);
    const [il, ip] = k.put(300, "lib.test.near");
    k.env.promise_batch_action_use_global_contract_by_account_id(p, il, ip);
    expect(k.l.receipts.receipts[0]!.actions).toEqual([
      { type: "DeployGlobalContract", code, deployMode: "CodeHash" },
      { type: "DeployGlobalContract", code, deployMode: "AccountId" },
      { type: "UseGlobalContract", contractIdentifier: { kind: "CodeHash", codeHash: hash } },
      { type: "UseGlobalContract", contractIdentifier: { kind: "AccountId", accountId: "lib.test.near" } },
    ]);
    expect(hostErrorOf(() => k.env.promise_batch_action_use_global_contract(p, 31n, hp))).toEqual({ name: "ContractCodeHashMalformed" });
    const [bl, bp] = k.put(400, "Bad Id");
    expect(hostErrorOf(() => k.env.promise_batch_action_use_global_contract_by_account_id(p, bl, bp))).toEqual({ name: "InvalidAccountId" });
    const v = hostKit({ isView: true });
    expect(hostErrorOf(() => v.env.promise_batch_action_deploy_global_contract(0n, 0n, 0n))).toEqual({
      name: "ProhibitedInView",
      fields: { method_name: "promise_batch_action_deploy_global_contract" },
    });
  });

  it("attached gas beyond what is left fails with GasExceeded; promises are prohibited in views", () => {
    const k = hostKit({ prepaidGas: 5n * TGAS });
    const c = withCall(k, "other.test.near");
    expect(hostErrorOf(() => k.env.promise_create(c.al, c.ap, c.ml, c.mp, c.gl, c.gp, c.amount, 5n * TGAS))).toEqual({ name: "GasExceeded" });
    const v = hostKit({ isView: true });
    expect(hostErrorOf(() => v.env.promise_batch_create(1n, 0n))).toEqual({ name: "ProhibitedInView", fields: { method_name: "promise_batch_create" } });
  });

  it("distributes unused gas by weight, the remainder to the last weighted call (nearcore's 1,5,2 of 40 example)", () => {
    const m = new ReceiptManager(() => new Uint8Array(32));
    const r = m.createActionReceipt([], "a.test.near");
    for (const w of [1n, 5n, 2n]) m.appendFunctionCall(r, "f", new Uint8Array(), 0n, 100n, w);
    m.appendFunctionCall(r, "g", new Uint8Array(), 0n, 100n, 0n);
    expect(m.distributeUnusedGas(40n)).toBe(true);
    expect(m.receipts[0]!.actions.map((a) => (a.type === "FunctionCall" ? a.gas : 0n))).toEqual([105n, 125n, 110n, 100n]);
    const m2 = new ReceiptManager(() => new Uint8Array(32));
    const r2 = m2.createActionReceipt([], "a.test.near");
    for (const w of [3n, 3n]) m2.appendFunctionCall(r2, "f", new Uint8Array(), 0n, 0n, w);
    m2.distributeUnusedGas(10n);
    expect(m2.receipts[0]!.actions.map((a) => (a.type === "FunctionCall" ? a.gas : 0n))).toEqual([5n, 5n]);
    expect(new ReceiptManager(() => new Uint8Array(32)).distributeUnusedGas(10n)).toBe(false);
  });
});

describe("unused gas distribution (nearcore receipt_manager.rs function_call_weight_basic_cases_test)", () => {
  // (static gas, weight, expected gas) per call, one receipt each; the call's unused gas is
  // 10,000,000,000 minus the static gas, as in nearcore's test.
  const cases: [string, [bigint, bigint, bigint][]][] = [
    ["single call", [[0n, 1n, 10_000_000_000n]]],
    ["single call with static gas", [[888n, 1n, 10_000_000_000n]]],
    ["large weight", [[0n, 88888n, 10_000_000_000n]]],
    ["weight larger than the gas", [[0n, 11n ** 14n, 10_000_000_000n]]],
    ["split two", [[0n, 3n, 6_000_000_000n], [0n, 2n, 4_000_000_000n]]],
    ["split two with static gas", [[1_000_000n, 3n, 5_998_600_000n], [3_000_000n, 2n, 4_001_400_000n]]],
    [
      "many weights",
      [
        [1_000_000n, 3n, 2_699_800_000n],
        [3_000_000n, 2n, 1_802_200_000n],
        [0n, 1n, 899_600_000n],
        [1_000_000_000n, 0n, 1_000_000_000n],
        [0n, 4n, 3_598_400_000n],
      ],
    ],
    ["weight over u64 bounds", [[0n, U64_MAX, 9_999_999_999n], [0n, 1000n, 1n]]],
    ["weights over the gas, three calls", [[0n, 10_000_000_000n, 4_999_999_999n], [0n, 1n, 0n], [0n, 10_000_000_000n, 5_000_000_001n]]],
    ["one zero weight, one non-zero", [[0n, 0n, 0n], [0n, 1n, 10_000_000_000n]]],
  ];
  it.each(cases)("%s", (_name, calls) => {
    const m = new ReceiptManager(() => new Uint8Array(32));
    let unused = 10_000_000_000n;
    for (const [staticGas, weight] of calls) {
      const r = m.createActionReceipt([], "rick.test");
      unused = unused > staticGas ? unused - staticGas : 0n;
      m.appendFunctionCall(r, "f", new Uint8Array(), 0n, staticGas, weight);
    }
    expect(m.distributeUnusedGas(unused)).toBe(true);
    const gas = m.receipts.flatMap((r) => r.actions.map((a) => (a.type === "FunctionCall" ? a.gas : -1n)));
    expect(gas).toEqual(calls.map(([, , expected]) => expected));
    expect(gas.reduce((s, g) => s + g, 0n)).toBe(10_000_000_000n);
  });
});

describe("promise results", () => {
  it("count, successful data into a register (no per-byte fee), failed = 2, bad index", () => {
    const data = new TextEncoder().encode("payload");
    const k = hostKit({ promiseResults: [data, null] });
    expect(k.env.promise_results_count()).toBe(2n);
    expect(k.gasOf(() => expect(k.env.promise_result(0n, 1n)).toBe(1n))).toBe(E.base + E.write_register_base);
    expect(k.register(1n)).toEqual(data);
    expect(k.env.promise_result(1n, 2n)).toBe(2n);
    expect(k.register(2n)).toBeUndefined();
    expect(hostErrorOf(() => k.env.promise_result(2n, 2n))).toEqual({ name: "InvalidPromiseResultIndex", fields: { result_idx: 2n } });
    expect(hostErrorOf(() => k.env.promise_return(0n))).toEqual({ name: "InvalidPromiseIndex", fields: { promise_idx: 0n } });
    expect(hostErrorOf(() => k.env.promise_result(U64_MAX, 0n))).toEqual({ name: "InvalidPromiseResultIndex", fields: { result_idx: U64_MAX } });
  });
});
