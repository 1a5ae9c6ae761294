import { describe, expect, it } from "vitest";
import { PointKind } from "../../../../src/chain/vm/wasm/gasAnalysis.js";
import { instrumentModule } from "../../../../src/chain/vm/wasm/instrument.js";
import { NEARCORE_WASM_LIMITS, prepareContract } from "../../../../src/chain/vm/wasm/prepareContract.js";
import { decodeModule, encodeModule } from "../../../../src/chain/vm/wasm/wasmModule.js";
import { AS_SAMPLE_CONTRACT, compileAssemblyScript } from "./ascFixture.js";
import { meteredRun } from "./meteredRun.js";
import { wat } from "./watFixture.js";

const R = BigInt(NEARCORE_WASM_LIMITS.regularOpCost);
const LINEAR_BASE = BigInt(NEARCORE_WASM_LIMITS.linearOpBaseCost);
const LINEAR_UNIT = BigInt(NEARCORE_WASM_LIMITS.linearOpUnitCost);
/** Frame charge of a function with no parameters or locals: ceil(64 / 8) instructions. */
const EMPTY_FRAME = 8n * R;

async function prepared(source: string): Promise<WebAssembly.Module> {
  const result = prepareContract(await wat(source), NEARCORE_WASM_LIMITS);
  if (!result.ok) throw new Error(result.error);
  return result.contract.module;
}

/** The same module metered with one charge per instruction instead of per segment. */
function perInstruction(code: Uint8Array): WebAssembly.Module {
  const m = decodeModule(code);
  const withMemory = { ...m, memories: [], imports: [...m.imports, { module: "env", name: "memory", desc: { kind: 2 as const, limits: { min: 1024, max: 2048 } } }], exports: m.exports.filter((e) => e.kind !== 2) };
  return new WebAssembly.Module(encodeModule(instrumentModule(withMemory, NEARCORE_WASM_LIMITS, false).module));
}

describe("finite-wasm gas analysis", () => {
  it("charges a straight-line body once, up front; block, else and end are free", async () => {
    const m = decodeModule(await wat(`(module (func (export "main") (block (drop (i32.add (i32.const 1) (i32.const 2))))))`));
    const { functions } = instrumentModule(m, NEARCORE_WASM_LIMITS);
    expect(functions[0]!.points.filter((p) => p.kind !== PointKind.unreachable && p.fee.constant > 0)).toEqual([
      { offset: 0, kind: PointKind.pure, fee: { constant: 4 * NEARCORE_WASM_LIMITS.regularOpCost, linear: 0 } },
    ]);
  });

  it("charges a loop per iteration (the loop instruction included) and the frame once", async () => {
    const module = await prepared(`(module (func (export "main") (local i32)
      (loop $l (br_if $l (i32.lt_u (local.tee 0 (i32.add (local.get 0) (i32.const 1))) (i32.const 10))))))`);
    // frame: 64 + 4 bytes -> 9 instructions; 10 iterations of 8 instructions.
    expect(meteredRun(module, "main")).toMatchObject({ gas: 9n * R + 80n * R, end: "ok", stackLeft: 262_144n });
  });

  it("charges bulk memory operations linear_op_base + count × linear_op_unit", async () => {
    const module = await prepared(`(module (memory 1) (func (export "main")
      (memory.fill (i32.const 0) (i32.const 7) (i32.const 1000))
      (memory.copy (i32.const 5000) (i32.const 0) (i32.const 10))))`);
    const expected = EMPTY_FRAME + 6n * R + 2n * LINEAR_BASE + 1010n * LINEAR_UNIT;
    expect(meteredRun(module, "main")).toMatchObject({ gas: expected, end: "ok" });
  });

  it("charges an instruction that traps, but nothing after it", async () => {
    const module = await prepared(`(module (memory 1) (func (export "main")
      (drop (i32.load (i32.const -16))) (drop (i32.const 1)) (drop (i32.const 2))))`);
    const run = meteredRun(module, "main");
    expect(run.gas).toBe(EMPTY_FRAME + 2n * R);
    expect(run.end).toMatch(/out of bounds/);
  });

  it("charges exactly what per-instruction metering charges, on branches, calls and traps", async () => {
    const programs = [
      `(module (func $f (param i32) (result i32)
          (if (result i32) (i32.gt_s (local.get 0) (i32.const 0))
            (then (i32.add (call $f (i32.sub (local.get 0) (i32.const 1))) (i32.const 2)))
            (else (i32.const 0))))
        (func (export "main") (drop (call $f (i32.const 30)))))`,
      `(module (func (export "main") (local i32)
          (block $a (block $b (block $c
            (loop $l
              (local.set 0 (i32.add (local.get 0) (i32.const 1)))
              (br_table $a $b $c $l (i32.rem_u (local.get 0) (i32.const 5)))))
            (nop)) (nop))))`,
      `(module (table 2 funcref) (elem (i32.const 0) $one $two)
        (type $t (func (result i32)))
        (func $one (result i32) (i32.const 1)) (func $two (result i32) (return (i32.const 2)) (i32.const 3))
        (func (export "main") (drop (call_indirect (type $t) (i32.const 1))) (drop (call_indirect (type $t) (i32.const 5)))))`,
      `(module (func (export "main") (local i64)
          (loop $l (br_if $l (i64.ne (local.tee 0 (i64.add (local.get 0) (i64.const 1))) (i64.const 1000))))
          (drop (i32.div_u (i32.const 1) (i32.wrap_i64 (i64.sub (local.get 0) (i64.const 1000)))))))`,
    ];
    for (const source of programs) {
      const code = await wat(source);
      const merged = meteredRun(await prepared(source), "main");
      const single = meteredRun(perInstruction(code), "main");
      expect(merged.gas).toBeGreaterThan(EMPTY_FRAME);
      expect(merged).toEqual(single);
    }
  });

  it("meters an AssemblyScript contract identically per segment and per instruction", async () => {
    const code = await compileAssemblyScript(AS_SAMPLE_CONTRACT);
    const result = prepareContract(code, NEARCORE_WASM_LIMITS);
    if (!result.ok) throw new Error(result.error);
    const logs: string[] = [];
    const env = (memory: WebAssembly.Memory) => ({
      log_utf8: (len: bigint, ptr: bigint) => void logs.push(Buffer.from(memory.buffer, Number(ptr), Number(len)).toString()),
      value_return: () => undefined,
      abort: () => {
        throw new Error("abort");
      },
    });
    const merged = meteredRun(result.contract.module, "main", { env });
    const single = meteredRun(perInstruction(code), "main", { env });
    expect(merged.end).toBe("ok");
    expect(merged.gas).toBe(single.gas);
    expect(logs).toEqual(["hello 15 7", "hello 15 7"]);
    expect(meteredRun(result.contract.module, "recurse", { env }).end).toBe("stack");
  }, 30_000);
});

describe("finite-wasm stack accounting", () => {
  it("sizes frames as 64 bytes plus parameters and locals, operands by their widest point", async () => {
    const { functions } = instrumentModule(decodeModule(await wat(`(module
        (func (param i64 i32) (local f64 f32 externref)
          (drop (i64.add (i64.const 1) (i64.extend_i32_u (i32.const 2))))))`)), NEARCORE_WASM_LIMITS);
    // 64 + i64 8 + i32 4 + f64 8 + f32 4 + externref 8; operands: i64 then i32 widened to i64 = 16.
    expect(functions[0]).toMatchObject({ frameSize: 96, operandStackSize: 16 });
  });

  it("keeps call_indirect's table index counted, as finite-wasm does", async () => {
    const { functions } = instrumentModule(
      decodeModule(await wat(`(module (type $t (func (param i32))) (table 1 funcref)
        (func (call_indirect (type $t) (i32.const 1) (i32.const 0)) (drop (i32.const 9))))`)),
      NEARCORE_WASM_LIMITS,
    );
    // i32 argument + i32 index = 8; the argument is popped, the index stays: 4 + 4 for i32.const 9.
    expect(functions[0]!.operandStackSize).toBe(8);
  });

  it("stops recursion when max_stack_height is spent, having charged every frame entered", async () => {
    const module = await prepared(`(module (func $f (export "main") (call $f)))`);
    const run = meteredRun(module, "main");
    expect(run.end).toBe("stack");
    // 262144 / 64 = 4096 frames, each charged its frame and one `call`.
    expect(run.gas).toBe(4096n * (EMPTY_FRAME + R));
  });

  it("gives the stack back on return, br to the function label and fallthrough", async () => {
    const module = await prepared(`(module
      (func $a (param i32) (result i32) (if (local.get 0) (then (return (i32.const 1)))) (i32.const 2))
      (func $b (result i32) (block (br 1 (i32.const 3))) (i32.const 4))
      (func (export "main") (drop (call $a (i32.const 1))) (drop (call $a (i32.const 0))) (drop (call $b))))`);
    expect(meteredRun(module, "main")).toMatchObject({ end: "ok", stackLeft: 262_144n });
  });
});

describe("function index remapping", () => {
  it("keeps exports, start, element segments, ref.func and globals pointing at the same functions", async () => {
    const module = await prepared(`(module
      (import "env" "seen" (func $seen (param i32)))
      (table 3 funcref) (elem (i32.const 0) $one $two) (elem declare func $three)
      (global $g funcref (ref.func $two))
      (type $t (func (result i32)))
      (func $one (result i32) (i32.const 1)) (func $two (result i32) (i32.const 2)) (func $three (result i32) (i32.const 3))
      (func $start (call $seen (i32.const 100)))
      (start $start)
      (func (export "main")
        (call $seen (call_indirect (type $t) (i32.const 0)))
        (call $seen (call_indirect (type $t) (i32.const 1)))
        (table.set (i32.const 2) (ref.func $three))
        (call $seen (call_indirect (type $t) (i32.const 2)))
        (table.set (i32.const 2) (global.get $g))
        (call $seen (call_indirect (type $t) (i32.const 2)))))`);
    const seen: number[] = [];
    const run = meteredRun(module, "main", { env: { seen: (v: number) => void seen.push(v) } });
    expect(run.end).toBe("ok");
    expect(seen).toEqual([100, 1, 2, 3, 2]);
  });
});
