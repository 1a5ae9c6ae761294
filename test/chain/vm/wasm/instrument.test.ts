import { describe, expect, it } from "vitest";
import { PointKind } from "../../../../src/chain/vm/wasm/gasAnalysis.js";
import { ByteReader } from "../../../../src/chain/vm/wasm/byteReader.js";
import { decodeOperators, instrumentModule } from "../../../../src/chain/vm/wasm/instrument.js";
import { Op } from "../../../../src/chain/vm/wasm/operators.js";
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
  const result = prepareContract(await wat(source), NEARCORE_WASM_LIMITS, { gasInGlobals: false, trackWrites: false });
  if (!result.ok) throw new Error(result.error);
  return result.contract.module;
}

/** The same module metered with one charge per instruction instead of per segment. */
function perInstruction(code: Uint8Array): WebAssembly.Module {
  const m = decodeModule(code);
  const withMemory = {
    ...m,
    memories: [],
    imports: [
      ...m.imports,
      { module: "env", name: "memory", desc: { kind: 2 as const, limits: { min: 1024, max: 2048 } } },
    ],
    exports: m.exports.filter((e) => e.kind !== 2),
  };
  return new WebAssembly.Module(
    encodeModule(instrumentModule(withMemory, NEARCORE_WASM_LIMITS, { mergeSegments: false, gasInGlobals: false }).module),
  );
}

describe("finite-wasm gas analysis", () => {
  it("charges a straight-line body once, up front; block, else and end are free", async () => {
    const m = decodeModule(
      await wat(`(module (func (export "main") (block (drop (i32.add (i32.const 1) (i32.const 2))))))`),
    );
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
    const result = prepareContract(code, NEARCORE_WASM_LIMITS, { gasInGlobals: false, trackWrites: false });
    if (!result.ok) throw new Error(result.error);
    const logs: string[] = [];
    const env = (memory: WebAssembly.Memory) => ({
      log_utf8: (len: bigint, ptr: bigint) =>
        void logs.push(Buffer.from(memory.buffer, Number(ptr), Number(len)).toString()),
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
    const { functions } = instrumentModule(
      decodeModule(
        await wat(`(module
        (func (param i64 i32) (local f64 f32 externref)
          (drop (i64.add (i64.const 1) (i64.extend_i32_u (i32.const 2))))))`),
      ),
      NEARCORE_WASM_LIMITS,
    );
    // 64 + i64 8 + i32 4 + f64 8 + f32 4 + externref 8; operands: i64 then i32 widened to i64 = 16.
    expect(functions[0]).toMatchObject({ frameSize: 96, operandStackSize: 16 });
  });

  it("keeps call_indirect's table index counted, as finite-wasm does", async () => {
    const { functions } = instrumentModule(
      decodeModule(
        await wat(`(module (type $t (func (param i32))) (table 1 funcref)
        (func (call_indirect (type $t) (i32.const 1) (i32.const 0)) (drop (i32.const 9))))`),
      ),
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

  it("wraps multi-value functions with and without parameters", async () => {
    const module = await prepared(`(module
      (import "env" "seen" (func $seen (param i64)))
      (func $pair (param i32) (result i32 i64) (if (local.get 0) (then (return (i32.const 1) (i64.const 2)))) (i32.const 3) (i64.const 4))
      (func $noargs (result i64 i32) (i64.const 5) (i32.const 6))
      (func (export "main")
        (call $pair (i32.const 1)) (call $seen) (drop)
        (call $pair (i32.const 0)) (call $seen) (drop)
        (call $noargs) (drop) (call $seen)))`);
    const seen: bigint[] = [];
    expect(meteredRun(module, "main", { env: { seen: (v: bigint) => void seen.push(v) } })).toMatchObject({
      end: "ok",
      stackLeft: 262_144n,
    });
    expect(seen).toEqual([2n, 4n, 5n]);
  });

  it("gives the stack back on return, br to the function label and fallthrough", async () => {
    const module = await prepared(`(module
      (func $a (param i32) (result i32) (if (local.get 0) (then (return (i32.const 1)))) (i32.const 2))
      (func $b (result i32) (block (br 1 (i32.const 3))) (i32.const 4))
      (func (export "main") (drop (call $a (i32.const 1))) (drop (call $a (i32.const 0))) (drop (call $b))))`);
    expect(meteredRun(module, "main")).toMatchObject({ end: "ok", stackLeft: 262_144n });
  });
});

describe("NaN canonicalisation", () => {
  it("gives every freshly made NaN the canonical bits, as nearcore's compilers do", async () => {
    const module = await prepared(`(module
      (import "env" "seen32" (func $seen32 (param i32)))
      (import "env" "seen64" (func $seen64 (param i64)))
      (func (export "main")
        (call $seen32 (i32.reinterpret_f32 (f32.sqrt (f32.const -1))))
        (call $seen32 (i32.reinterpret_f32 (f32.div (f32.const 0) (f32.const 0))))
        (call $seen32 (i32.reinterpret_f32 (f32.demote_f64 (f64.const -nan:0x4))))
        (call $seen64 (i64.reinterpret_f64 (f64.sub (f64.const inf) (f64.const inf))))
        (call $seen64 (i64.reinterpret_f64 (f64.promote_f32 (f32.const -nan:0x1))))
        (call $seen32 (i32.reinterpret_f32 (f32.neg (f32.const nan))))
        (call $seen32 (i32.reinterpret_f32 (f32.add (f32.const 1.5) (f32.const 2))))))`);
    const bits: string[] = [];
    const run = meteredRun(module, "main", {
      env: {
        seen32: (v: number) => void bits.push((v >>> 0).toString(16)),
        seen64: (v: bigint) => void bits.push(BigInt.asUintN(64, v).toString(16)),
      },
    });
    expect(run.end).toBe("ok");
    // neg is a sign-bit operation nearcore leaves alone; 3.5 is not a NaN.
    expect(bits).toEqual([
      "7fc00000",
      "7fc00000",
      "7fc00000",
      "7ff8000000000000",
      "7ff8000000000000",
      "ffc00000",
      "40600000",
    ]);
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

describe("segment boundaries as finite-wasm draws them", () => {
  /** The gas constants an instrumented function charges, in code order. */
  function chargesOf(body: Uint8Array): number[] {
    const ops = decodeOperators(body);
    const charges: number[] = [];
    for (let i = 1; i < ops.length; i++) {
      const op = ops[i]!;
      const prev = ops[i - 1]!;
      if (op.code === Op.call && op.index === 0 && prev.code === Op.i64Const) {
        charges.push(Number(new ByteReader(body, prev.start + 1).varS64()));
      }
    }
    return charges;
  }

  it("matches finite-wasm's own instrumentation snapshot (tests/snaps/if.wast, every instruction priced 1)", async () => {
    // The instruction sequences of functions 2, 3, 4, 7, 10 and 11 of that snapshot, and the
    // gas constants it shows for them, in order. (Function 3 without its empty-else forms,
    // which encoders write differently.)
    const module = decodeModule(
      await wat(`(module
        (func $dummy)
        (func (param i32) (if (local.get 0) (then)) (if (local.get 0) (then)))
        (func (param i32) (result i32)
          (if (local.get 0) (then (nop)))
          (if (local.get 0) (then (nop)) (else (nop)))
          (if (result i32) (local.get 0) (then (i32.const 7)) (else (i32.const 8))))
        (func (param i32) (result i32)
          (select (if (result i32) (local.get 0) (then (call $dummy) (i32.const 1)) (else (call $dummy) (i32.const 0)))
            (i32.const 2) (i32.const 3)))
        (func (param i32) (result i32)
          (loop (result i32)
            (if (result i32) (local.get 0) (then (call $dummy) (i32.const 1)) (else (call $dummy) (i32.const 0)))
            (call $dummy) (call $dummy)))
        (func (param i32) (result i32)
          (loop (result i32)
            (call $dummy)
            (if (result i32) (local.get 0) (then (call $dummy) (i32.const 1)) (else (call $dummy) (i32.const 0)))
            (call $dummy))))`),
    );
    const { module: instrumented, functions } = instrumentModule(module, NEARCORE_WASM_LIMITS, {
      fee: () => ({ constant: 1, linear: 0 }),
      gasInGlobals: false,
      trackWrites: false,
    });
    // The operand-stack part of the finite_wasm_stack arguments in the same snapshot.
    expect(functions.map((f) => f.operandStackSize)).toEqual([0, 4, 4, 12, 4, 4]);
    expect(instrumented.code.map((f) => chargesOf(f.code))).toEqual([
      [1],
      [2, 1, 2, 1, 1],
      [2, 2, 2, 2, 2, 2, 2, 2, 1],
      [2, 1, 2, 1, 2, 4],
      [3, 1, 2, 1, 2, 1, 1, 2],
      [2, 2, 1, 2, 1, 2, 1, 2],
    ]);
  });
});
