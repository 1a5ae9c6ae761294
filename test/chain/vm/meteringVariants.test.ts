import { describe, expect, it } from "vitest";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import { ContractCache } from "../../../src/chain/vm/ContractCache.js";
import { wasmLimitsOf } from "../../../src/chain/vm/wasmLimitsOf.js";
import { runContract, type VmOutcome } from "../../../src/chain/vm/runContract.js";
import type { VmContext } from "../../../src/chain/vm/VmContext.js";
import { DEFAULT_CONTEXT, NO_STATE_EXT, P } from "./hostKit.js";
import { contract } from "./wat.js";

/**
 * Gas kept in wasm globals (the default) against host-call metering (every segment charged
 * through finite_wasm_gas): the same outcome, burnt/used gas, profile and error, for code that
 * stays within one armed budget, crosses several (a long loop), runs out of gas part-way,
 * calls host functions in between and has a start function.
 */
const viaHost = new ContractCache(wasmLimitsOf(P), 16 * 1024 * 1024, { gasInGlobals: false });
const viaGlobals = new ContractCache(wasmLimitsOf(P), 16 * 1024 * 1024);
/** Every charge on the gas global itself (no counter locals). */
const viaGlobalsOnly = new ContractCache(wasmLimitsOf(P), 16 * 1024 * 1024, { counterLocals: false });

function run(cache: ContractCache, code: Uint8Array, methodName: string, context: Partial<VmContext>): VmOutcome {
  return runContract({
    codeHash: Buffer.from(sha256(code)).toString("hex"),
    code: () => code,
    codeLength: code.length,
    methodName,
    context: { ...DEFAULT_CONTEXT, ...context },
    params: P,
    ext: NO_STATE_EXT,
    newDataId: () => sha256(Uint8Array.of(0)),
    cache,
  });
}

const CODE = contract(
  `(import "env" "log_utf8" (func $log (param i64 i64)))
   (import "env" "used_gas" (func $used_gas (result i64)))
   (import "env" "value_return" (func $value_return (param i64 i64)))
   (import "env" "promise_batch_create" (func $batch (param i64 i64) (result i64)))
   (import "env" "promise_batch_action_function_call" (func $fcall (param i64 i64 i64 i64 i64 i64 i64)))`,
  `(global $started (mut i32) (i32.const 0))
   (data (i32.const 16) "tick")
   (data (i32.const 32) "bob.near")
   (data (i32.const 48) "go")
   (func $start (global.set $started (i32.const 7)))
   (start $start)
   (func $spin (param $n i32) (local $i i32)
     (loop $l
       (local.set $i (i32.add (local.get $i) (i32.const 1)))
       (br_if $l (i32.lt_u (local.get $i) (local.get $n)))))
   (func $deep (param $d i32) (if (local.get $d) (then (call $deep (i32.sub (local.get $d) (i32.const 1))))))
   (func (export "short") (call $spin (i32.const 10)))
   ;; ~2.6M instructions: crosses the armed budget (1e12 gas) several times.
   (func (export "long") (call $spin (i32.const 400000)) (call $log (i64.const 4) (i64.const 16)) (call $spin (i32.const 250000)))
   (func (export "chatty") (local $k i32)
     (loop $l
       (call $log (i64.const 4) (i64.const 16))
       (call $spin (i32.const 50))
       (local.set $k (i32.add (local.get $k) (i32.const 1)))
       (br_if $l (i32.lt_u (local.get $k) (i32.const 20))))
     (i64.store (i32.const 0) (call $used_gas))
     (call $value_return (i64.const 8) (i64.const 0)))
   ;; Promises move the burnt-gas limit (gas reserved for them) between stretches of wasm.
   (func (export "promising") (local $p i64)
     (call $spin (i32.const 200))
     (local.set $p (call $batch (i64.const 8) (i64.const 32)))
     (call $spin (i32.const 200))
     (call $fcall (local.get $p) (i64.const 2) (i64.const 48) (i64.const 0) (i64.const 0) (i64.const 64) (i64.const 5000000000000))
     (call $spin (i32.const 5000))
     (call $log (i64.const 4) (i64.const 16)))
   (func (export "started") (if (i32.ne (global.get $started) (i32.const 7)) (then unreachable)))
   (func (export "recurse") (call $deep (i32.const 100000)))
   (func (export "trap") (call $spin (i32.const 1000)) unreachable)
   ;; Traps after charges the gas global has not seen yet with counter locals.
   (func (export "oob") (local $i i32)
     (call $spin (i32.const 300))
     (loop $l
       (drop (i32.load (local.get $i)))
       (local.set $i (i32.add (local.get $i) (i32.const 65536)))
       (br $l)))
   (func (export "divzero") (call $spin (i32.const 300)) (drop (i32.div_u (i32.const 1) (i32.sub (global.get $started) (i32.const 7)))))`,
);

/** Bulk memory makes a module untracked (no write mark, no instance reuse): metered the same. */
const BULK = contract("", `(func (export "fill") (memory.fill (i32.const 0) (i32.const 1) (i32.const 100000)))`);

describe("gas in wasm globals equals host-call metering", () => {
  it.each([300n * 10n ** 12n, 3_000_000_000n, 250_000_000n])("bulk memory with %d prepaid gas", (prepaidGas) => {
    expect(run(viaGlobals, BULK, "fill", { prepaidGas })).toEqual(run(viaHost, BULK, "fill", { prepaidGas }));
  });

  const TGAS = 10n ** 12n;
  const cases: [string, bigint][] = [];
  for (const method of ["short", "long", "chatty", "started", "recurse", "trap", "oob", "divzero"]) {
    for (const gas of [300n * TGAS, 2n * TGAS, TGAS / 2n, 3_000_000_000n, 250_000_000n]) cases.push([method, gas]);
  }
  it.each(cases)("%s with %d prepaid gas", (method, prepaidGas) => {
    const expected = run(viaHost, CODE, method, { prepaidGas });
    // Twice: a fresh instance, then (CODE is reusable) the warm one put back after the first call.
    expect(run(viaGlobals, CODE, method, { prepaidGas })).toEqual(expected);
    expect(run(viaGlobals, CODE, method, { prepaidGas })).toEqual(expected);
    expect(run(viaGlobalsOnly, CODE, method, { prepaidGas })).toEqual(expected);
  });

  // Prepaid gas running out at many points: inside wasm, in a host charge right after wasm the
  // host had not counted yet (the gas counter's reserve), and around promise reservations.
  const sweep: [string, bigint][] = [];
  for (const method of ["chatty", "promising"]) {
    for (let gas = 2_000_000_000n; gas <= 40_000_000_000n; gas += 1_900_000_000n) sweep.push([method, gas]);
    for (const tgas of [5n, 6n, 7n, 8n]) sweep.push([method, tgas * TGAS + 123_456_789n]);
  }
  // "long" burns more than one armed budget (1e12) before its log: the host's charges there
  // run on the reserve path until the limit is near.
  for (let gas = 1_000_000_000_000n; gas <= 2_600_000_000_000n; gas += 150_000_000_000n) sweep.push(["long", gas + 7_777n]);
  it.each(sweep)("%s with %d prepaid gas (limit sweep)", (method, prepaidGas) => {
    const expected = run(viaHost, CODE, method, { prepaidGas });
    expect(run(viaGlobalsOnly, CODE, method, { prepaidGas })).toEqual(expected);
    expect(run(viaGlobals, CODE, method, { prepaidGas })).toEqual(expected);
    expect(run(viaGlobals, CODE, method, { prepaidGas })).toEqual(expected);
  });

  it("the limit sweep crosses the limits it is meant to", () => {
    const errors = sweep.map(([method, prepaidGas]) => run(viaGlobals, CODE, method, { prepaidGas }).error?.kind ?? "ok");
    expect(errors).toContain("ok");
    expect(errors).toContain("HostError");
    expect(run(viaGlobals, CODE, "promising", { prepaidGas: 300n * TGAS }).receipts).toHaveLength(1);
  });

  it("the fixture module is the reusable kind, the bulk one is not", () => {
    const code = viaGlobals.get("x", () => CODE).result;
    const bulk = viaGlobals.get("y", () => BULK).result;
    expect(code.ok && code.contract.instanceReuse !== undefined).toBe(true);
    expect(bulk.ok && bulk.contract.instanceReuse).toBe(undefined);
  });

  it("exercises what it claims: a long run, an out-of-gas stop and a trap", () => {
    expect(run(viaGlobals, CODE, "long", { prepaidGas: 300n * TGAS }).burntGas).toBeGreaterThan(2n * TGAS);
    expect(run(viaGlobals, CODE, "long", { prepaidGas: 2n * TGAS }).error).toEqual({ kind: "HostError", error: { name: "GasExceeded" } });
    expect(run(viaGlobals, CODE, "started", { prepaidGas: TGAS }).error).toBeUndefined();
    expect(run(viaGlobals, CODE, "recurse", { prepaidGas: 300n * TGAS }).error).toEqual({ kind: "HostError", error: { name: "MemoryAccessViolation" } });
    expect(run(viaGlobals, CODE, "oob", { prepaidGas: 300n * TGAS }).error).toEqual({ kind: "WasmTrap", trap: "MemoryOutOfBounds" });
    expect(run(viaGlobals, CODE, "divzero", { prepaidGas: 300n * TGAS }).error).toEqual({ kind: "WasmTrap", trap: "IllegalArithmetic" });
  });

  it("views (no prepaid limit, max burnt only) match too", () => {
    for (const method of ["long", "chatty", "trap", "oob"]) {
      expect(run(viaGlobals, CODE, method, { isView: true })).toEqual(run(viaHost, CODE, method, { isView: true }));
      expect(run(viaGlobalsOnly, CODE, method, { isView: true })).toEqual(run(viaHost, CODE, method, { isView: true }));
    }
  });
});
