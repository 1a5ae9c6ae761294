import { describe, expect, it } from "vitest";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import { ContractCache } from "../../../src/chain/vm/ContractCache.js";
import { wasmLimitsOf } from "../../../src/chain/vm/wasmLimitsOf.js";
import { MemoryPool } from "../../../src/chain/vm/MemoryPool.js";
import { runContract } from "../../../src/chain/vm/runContract.js";
import { prepareContract } from "../../../src/chain/vm/wasm/prepareContract.js";
import { DEFAULT_CONTEXT, NO_STATE_EXT, P } from "./hostKit.js";
import { contract } from "./wat.js";

/**
 * Every call must start from all-zero memory although pooled memories are cleared only below
 * what the previous call can have written (guest stores, data segments, host writes).
 */
const cache = new ContractCache(wasmLimitsOf(P));
const MiB = 1 << 20;
const IMPORTS = `(import "env" "input" (func $input (param i64)))
  (import "env" "read_register" (func $read_register (param i64 i64)))
  (import "env" "value_return" (func $value_return (param i64 i64)))`;
/** Every address a method of the fixtures writes; `check` returns the OR of the 8 bytes at each. */
const PROBES = [8, 24 * MiB, 40 * MiB + 1000, 50 * MiB, 60 * MiB, 64 * MiB - 8];
const CHECK = `(func (export "check") (local $acc i64)
  ${PROBES.map((a) => `(local.set $acc (i64.or (local.get $acc) (i64.load (i32.const ${a}))))`).join("\n  ")}
  (i64.store (i32.const 0) (local.get $acc))
  (call $value_return (i64.const 8) (i64.const 0)))`;

function runWith(code: Uint8Array, methodName: string, memories: MemoryPool, input: Uint8Array = new Uint8Array()) {
  return runContract({
    codeHash: Buffer.from(sha256(code)).toString("hex"),
    code: () => code,
    codeLength: code.length,
    methodName,
    context: { ...DEFAULT_CONTEXT, input },
    params: P,
    ext: NO_STATE_EXT,
    newDataId: () => sha256(Uint8Array.of(0)),
    cache,
    memories,
  });
}

/** A pool of one memory that records the memories it hands out. */
function trackedPool() {
  const pool = new MemoryPool(P.wasm.initialMemoryPages, P.wasm.maxMemoryPages, 1);
  const handed: WebAssembly.Memory[] = [];
  const take = pool.take.bind(pool);
  pool.take = () => {
    const m = take();
    handed.push(m);
    return m;
  };
  return { pool, handed };
}

/** A contract that only checks (no data segments of its own). */
const CHECKER = contract(IMPORTS, CHECK);

function expectCleanAfter(code: Uint8Array, dirtyMethod: string, input?: Uint8Array, checker = code) {
  const { pool, handed } = trackedPool();
  const dirty = runWith(code, dirtyMethod, pool, input);
  expect(dirty.error).toBeUndefined();
  const check = runWith(checker, "check", pool);
  expect(check.error).toBeUndefined();
  expect(handed[1]).toBe(handed[0]); // the memory was reused
  expect(check.returnData).toEqual({ kind: "Value", value: new Uint8Array(8) });
}

describe("pooled memory is all-zero at the start of every call", () => {
  it("after guest stores anywhere (every store width, with and without offsets)", () => {
    const code = contract(
      IMPORTS,
      `(func (export "dirty")
         (i64.store (i32.const 8) (i64.const -1))
         (i32.store8 offset=${24 * MiB} (i32.const 0) (i32.const 7))
         (f64.store (i32.const ${40 * MiB + 1000}) (f64.const 1.5))
         (i64.store32 offset=16 (i32.const ${50 * MiB - 16}) (i64.const 3))
         (f32.store (i32.const ${60 * MiB + 4}) (f32.const 2))
         (i32.store16 offset=6 (i32.const ${64 * MiB - 8}) (i32.const 9)))
       ${CHECK}`,
    );
    expectCleanAfter(code, "dirty");
  });

  it("after a call that trapped right after writing high", () => {
    const code = contract(IMPORTS, `(func (export "dirty") (i64.store (i32.const ${60 * MiB}) (i64.const 5)) unreachable) ${CHECK}`);
    const { pool, handed } = trackedPool();
    expect(runWith(code, "dirty", pool).error).toEqual({ kind: "WasmTrap", trap: "Unreachable" });
    expect(runWith(code, "check", pool).returnData).toEqual({ kind: "Value", value: new Uint8Array(8) });
    expect(handed[1]).toBe(handed[0]);
  });

  it("after host writes (read_register into high memory)", () => {
    const code = contract(IMPORTS, `(func (export "dirty") (call $input (i64.const 0)) (call $read_register (i64.const 0) (i64.const ${50 * MiB}))) ${CHECK}`);
    expectCleanAfter(code, "dirty", Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]));
  });

  it("after data segments at high offsets", () => {
    const code = contract(IMPORTS, `(data (i32.const ${60 * MiB}) "\\01\\02") (func (export "dirty"))`);
    expectCleanAfter(code, "dirty", undefined, CHECKER);
  });

  it("after bulk memory writes (untracked: the whole memory is checked)", () => {
    const code = contract(IMPORTS, `(func (export "dirty") (memory.fill (i32.const ${40 * MiB}) (i32.const 255) (i32.const ${MiB}))) ${CHECK}`);
    const prepared = prepareContract(code, wasmLimitsOf(P));
    expect(prepared.ok && prepared.contract.writeTracking).toBe(undefined);
    expectCleanAfter(code, "dirty");
  });

  it("a reused (warm) instance starts each call from the initial state: globals, data segments, zeroed memory", () => {
    const code = contract(
      IMPORTS,
      `(global $g (mut i64) (i64.const 42))
       (global $s (mut i32) (i32.const 0))
       (data (i32.const 64) "seed")
       (func $start (global.set $s (i32.add (global.get $s) (i32.const 1))))
       (start $start)
       (func (export "dirty")
         (global.set $g (i64.const 7))
         (i32.store (i32.const 64) (i32.const 0x58585858))
         (i64.store (i32.const 4096) (i64.const -1))
         (call $input (i64.const 0)) (call $read_register (i64.const 0) (i64.const 8192)))
       (func (export "dirty_then_trap") (global.set $g (i64.const 9)) (i64.store (i32.const 300) (i64.const 1)) unreachable)
       (func (export "state")
         (i64.store (i32.const 0) (global.get $g))
         (i32.store (i32.const 8) (global.get $s))
         (i32.store (i32.const 12) (i32.load (i32.const 64)))
         (i64.store (i32.const 16) (i64.or (i64.or (i64.load (i32.const 4096)) (i64.load (i32.const 8192))) (i64.load (i32.const 300))))
         (call $value_return (i64.const 24) (i64.const 0)))`,
    );
    const { pool, handed } = trackedPool();
    const initial = runWith(code, "state", pool);
    const expected = new Uint8Array(24);
    Buffer.from(expected.buffer).writeBigInt64LE(42n, 0);
    Buffer.from(expected.buffer).writeInt32LE(1, 8); // the start function ran once in this call
    expected.set(new TextEncoder().encode("seed"), 12);
    expect(initial.returnData).toEqual({ kind: "Value", value: expected });
    expect(runWith(code, "dirty", pool, Uint8Array.from([1, 2, 3])).error).toBeUndefined();
    expect(runWith(code, "state", pool).returnData).toEqual({ kind: "Value", value: expected });
    expect(runWith(code, "dirty_then_trap", pool).error).toEqual({ kind: "WasmTrap", trap: "Unreachable" });
    const after = runWith(code, "state", pool);
    expect(after.returnData).toEqual({ kind: "Value", value: expected });
    expect(after.burntGas).toBe(initial.burntGas);
    expect(handed.length).toBe(1); // one memory taken from the pool: every later call reused the warm instance
  });

  it("host functions see memory the guest grew during the call", () => {
    const code = contract(
      IMPORTS,
      `(func (export "grow_then_write")
         (drop (memory.grow (i32.const 1)))
         (call $input (i64.const 0))
         (call $read_register (i64.const 0) (i64.const ${64 * MiB + 10}))
         (call $value_return (i64.const 3) (i64.const ${64 * MiB + 10})))`,
    );
    const { pool } = trackedPool();
    runWith(code, "grow_then_write", pool, Uint8Array.from([1])); // the view made before the growth is stale afterwards
    expect(runWith(code, "grow_then_write", pool, Uint8Array.from([7, 8, 9])).returnData).toEqual({ kind: "Value", value: Uint8Array.from([7, 8, 9]) });
  });

  it("tracks plain contracts: stores below the mark, data end and store reach", () => {
    const code = contract(IMPORTS, `(data (i32.const 100) "abc") (func (export "dirty") (i64.store offset=32 (i32.const 0) (i64.const 1))) ${CHECK}`);
    const prepared = prepareContract(code, wasmLimitsOf(P));
    if (!prepared.ok) throw new Error("prepare failed");
    expect(prepared.contract.writeTracking).toMatchObject({ dataEnd: 103, storeReach: 40 });
    expect(prepared.contract.exportedFunctions.has(prepared.contract.writeTracking!.markExport)).toBe(false);
  });
});
