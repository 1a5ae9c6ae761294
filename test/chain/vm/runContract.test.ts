import { describe, expect, it } from "vitest";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import { ContractCache } from "../../../src/chain/vm/ContractCache.js";
import { wasmLimitsOf } from "../../../src/chain/vm/wasmLimitsOf.js";
import { runContract, type ContractRun } from "../../../src/chain/vm/runContract.js";
import type { VmContext } from "../../../src/chain/vm/VmContext.js";
import { DEFAULT_CONTEXT, E, P } from "./hostKit.js";
import { contract, wat } from "./wat.js";

const cache = new ContractCache(wasmLimitsOf(P));

function run(code: Uint8Array, methodName: string, context: Partial<VmContext> = {}, extra: Partial<ContractRun> = {}) {
  const storage = new Map<string, Uint8Array>();
  let n = 0;
  return runContract({
    codeHash: Buffer.from(sha256(code)).toString("hex"),
    code: () => code,
    codeLength: code.length,
    methodName,
    context: { ...DEFAULT_CONTEXT, ...context },
    params: P,
    ext: {
      storageGet: (k) => storage.get(Buffer.from(k).toString("hex")),
      storageSet: (k, v) => void storage.set(Buffer.from(k).toString("hex"), v),
      storageRemove: (k) => void storage.delete(Buffer.from(k).toString("hex")),
      validatorStake: () => undefined,
      validatorTotalStake: () => 0n,
    },
    newDataId: () => sha256(Uint8Array.of(n++)),
    cache,
    ...extra,
  });
}

const TRAPS = contract(
  "",
  `(table 2 funcref)
   (elem (i32.const 0) $nop)
   (type $needs_i32 (func (param i32)))
   (func $nop)
   (func (export "unreachable") unreachable)
   (func (export "div_zero") (drop (i32.div_s (i32.const 1) (i32.const 0))))
   (func (export "overflow") (drop (i32.div_s (i32.const -2147483648) (i32.const -1))))
   (func (export "oob") (drop (i32.load (i32.const -4))))
   (func (export "bad_sig") (call_indirect (type $needs_i32) (i32.const 0) (i32.const 0)))
   (func (export "null_entry") (call_indirect (i32.const 1)))
   (func (export "table_oob") (call_indirect (i32.const 5)))
   (func $down (export "recurse") (call $down))
   (func (export "spin") (loop $l (br $l)))
   (func (export "nothing"))`,
);

describe("runContract", () => {
  it.each([
    ["unreachable", "Unreachable"],
    ["div_zero", "IllegalArithmetic"],
    ["overflow", "IllegalArithmetic"],
    ["oob", "MemoryOutOfBounds"],
    // Deviation: V8 reports a signature mismatch and a null entry with one message.
    ["bad_sig", "IndirectCallToNull"],
    ["null_entry", "IndirectCallToNull"],
    ["table_oob", "CallIndirectOOB"],
  ])("maps the %s trap to WasmTrap %s, gas burnt so far kept", (method, trap) => {
    const out = run(TRAPS, method);
    expect(out.error).toEqual({ kind: "WasmTrap", trap });
    expect(out.burntGas).toBeGreaterThan(0n);
  });

  it("deep recursion stops on nearcore's stack budget (MemoryAccessViolation from finite_wasm_stack)", () => {
    const out = run(TRAPS, "recurse");
    expect(out.error).toEqual({ kind: "HostError", error: { name: "MemoryAccessViolation" } });
  });

  it("an endless loop runs out of its prepaid gas; the whole prepaid gas is burnt", () => {
    const out = run(TRAPS, "spin", { prepaidGas: 10n ** 12n });
    expect(out.error).toEqual({ kind: "HostError", error: { name: "GasExceeded" } });
    expect(out.burntGas).toBe(10n ** 12n);
  });

  it("an endless loop past the wall-clock budget fails as if its gas ran out", () => {
    const t = performance.now();
    const out = run(TRAPS, "spin", { prepaidGas: 10n ** 14n }, { timeLimitMs: 50 });
    expect(performance.now() - t).toBeLessThan(2_000);
    expect(out.error).toEqual({ kind: "HostError", error: { name: "GasExceeded" } });
    expect(out.burntGas).toBe(10n ** 14n);
    // With prepaid gas at max_gas_burnt, the burn limit is crossed too: GasLimitExceeded, as in nearcore.
    const view = run(TRAPS, "spin", { isView: true }, { timeLimitMs: 50 });
    expect(view.error).toEqual({ kind: "HostError", error: { name: "GasLimitExceeded" } });
  });

  it("charges the contract-loading fee (per byte + base) even for an empty method", () => {
    const out = run(TRAPS, "nothing");
    expect(out.error).toBeUndefined();
    const loading = BigInt(TRAPS.length) * E.contract_loading_bytes + E.contract_loading_base;
    expect(out.burntGas).toBeGreaterThan(loading);
    expect(out.burntGas - loading).toBeLessThan(100n * P.wasm.regularOpCost); // the frame and a few instructions
    expect(run(TRAPS, "nothing", { prepaidGas: loading - 1n }).error).toEqual({ kind: "HostError", error: { name: "GasExceeded" } });
  });

  it("resolves methods as nearcore does", () => {
    const code = contract("", `(func (export "with_result") (result i32) (i32.const 1)) (global (export "g") i32 (i32.const 0))`);
    expect(run(code, "missing").error).toEqual({ kind: "MethodResolveError", error: "MethodNotFound" });
    expect(run(code, "g").error).toEqual({ kind: "MethodResolveError", error: "MethodNotFound" });
    expect(run(code, "with_result").error).toEqual({ kind: "MethodResolveError", error: "MethodInvalidSignature" });
    const empty = run(code, "");
    expect(empty.error).toEqual({ kind: "MethodResolveError", error: "MethodEmptyName" });
    expect(empty.burntGas).toBe(0n);
  });

  it("links only known imports with nearcore's signatures, and never fails at instantiation for supported-but-unimplemented ones", () => {
    const unknown = contract(`(import "env" "no_such_fn" (func))`, `(func (export "m"))`);
    // nearcore's text for wasmtime's UnknownImportError (wasmtime_runner `into_vm_error`).
    expect(run(unknown, "m").error).toEqual({ kind: "LinkError", msg: "unknown or invalid import" });
    // NEP-616 names promise_result_length, but nearcore has no such host function (PR #14390 is open).
    const resultLength = contract(`(import "env" "promise_result_length" (func (param i64) (result i64)))`, `(func (export "m"))`);
    expect(run(resultLength, "m").error).toEqual({ kind: "LinkError", msg: "unknown or invalid import" });
    const wrong = contract(`(import "env" "block_index" (func (result i32)))`, `(func (export "m"))`);
    expect(run(wrong, "m").error).toEqual({ kind: "LinkError", msg: "incompatible import type for `env::block_index`" });
    const unimplemented = contract(
      `(import "env" "promise_batch_action_state_init" (func $state_init (param i64 i64 i64 i64) (result i64)))
       (import "env" "promise_yield_resume_with_yield_id" (func $resume_id (param i64 i64 i64 i64) (result i32)))`,
      `(func (export "ok")) (func (export "call") (drop (call $state_init (i64.const 0) (i64.const 0) (i64.const 0) (i64.const 0))))
       (func (export "resume_id") (drop (call $resume_id (i64.const 0) (i64.const 0) (i64.const 0) (i64.const 0))))`,
    );
    expect(run(unimplemented, "ok").error).toBeUndefined();
    // Implemented since NEP-616 (protocol 82): an empty code hash is malformed.
    expect(run(unimplemented, "call").error).toEqual({ kind: "HostError", error: { name: "ContractCodeHashMalformed" } });
    // Implemented since protocol 85 (YieldWithId): an empty yield id is malformed.
    expect(run(unimplemented, "resume_id").error).toEqual({ kind: "HostError", error: { name: "YieldIdMalformed" } });
  });

  it("refuses malformed code and modules nearcore's preparation refuses", () => {
    expect(run(Uint8Array.of(0, 97, 115, 109, 1, 0, 0, 0, 99), "m").error).toEqual({ kind: "CompilationError", error: { kind: "PrepareError", error: "Deserialization" } });
    const importsMemory = wat(`(module (import "env" "memory" (memory 1)) (func (export "m")))`);
    expect(run(importsMemory, "m").error).toEqual({ kind: "CompilationError", error: { kind: "PrepareError", error: "Memory" } });
    const otherModule = wat(`(module (import "other" "f" (func)) (func (export "m")))`);
    expect(run(otherModule, "m").error).toEqual({ kind: "CompilationError", error: { kind: "PrepareError", error: "Instantiate" } });
  });

  it("gives unused gas to weighted function calls at the end (all prepaid gas used)", () => {
    const code = contract(
      `(import "env" "promise_batch_create" (func $create (param i64 i64) (result i64)))
       (import "env" "promise_batch_action_function_call_weight" (func $call (param i64 i64 i64 i64 i64 i64 i64 i64)))`,
      `(data (i32.const 0) "other.test.near")
       (data (i32.const 32) "f")
       (func (export "m")
         (local $p i64)
         (local.set $p (call $create (i64.const 15) (i64.const 0)))
         (call $call (local.get $p) (i64.const 1) (i64.const 32) (i64.const 0) (i64.const 0) (i64.const 64) (i64.const 1000) (i64.const 1))
         (call $call (local.get $p) (i64.const 1) (i64.const 32) (i64.const 0) (i64.const 0) (i64.const 64) (i64.const 0) (i64.const 3)))`,
    );
    const prepaid = 50n * 10n ** 12n;
    const out = run(code, "m", { prepaidGas: prepaid });
    expect(out.error).toBeUndefined();
    expect(out.usedGas).toBe(prepaid);
    const gases = out.receipts[0]!.actions.map((a) => (a.type === "FunctionCall" ? a.gas : -1n));
    const unused = gases[0]! + gases[1]! - 1000n;
    expect(gases[0]! - 1000n).toBe((unused / 4n) * 1n);
    expect(gases[1]!).toBe(unused - unused / 4n);
    const reserved = out.usedGas - out.burntGas - gases[0]! - gases[1]!;
    const F = P.fees;
    expect(reserved).toBe(F.actionReceiptCreation.execution + 2n * (F.functionCallBase.execution + F.functionCallPerByte.execution));
  });

  it("view calls: no prepaid-gas limit, logs kept on failure", () => {
    const code = contract(
      `(import "env" "log_utf8" (func $log (param i64 i64))) (import "env" "panic" (func $panic))`,
      `(data (i32.const 0) "before") (func (export "m") (call $log (i64.const 6) (i64.const 0)) (call $panic))`,
    );
    const out = run(code, "m", { isView: true, prepaidGas: 0n });
    expect(out.logs).toEqual(["before"]);
    expect(out.error).toEqual({ kind: "HostError", error: { name: "GuestPanic", fields: { panic_msg: "explicit guest panic" } } });
  });
});
