import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  NEARCORE_WASM_LIMITS,
  type PrepareErrorJson,
  prepareContract,
  type WasmLimits,
} from "../../../../src/chain/vm/wasm/prepareContract.js";
import { AS_SAMPLE_CONTRACT, compileAssemblyScript } from "./ascFixture.js";
import { wat, type WatFeatures } from "./watFixture.js";

interface ErrorCase {
  readonly name: string;
  readonly wat?: string;
  readonly bytes?: number[];
  readonly features?: WatFeatures;
  readonly limits?: Partial<WasmLimits>;
  readonly error: PrepareErrorJson;
}

const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

const CASES: ErrorCase[] = [
  { name: "not wasm at all", bytes: [1, 2, 3, 4], error: "Deserialization" },
  { name: "empty input", bytes: [], error: "Deserialization" },
  { name: "wrong version", bytes: [0x00, 0x61, 0x73, 0x6d, 0x02, 0x00, 0x00, 0x00], error: "Deserialization" },
  { name: "truncated section", bytes: [...header, 0x01, 0x05, 0x01], error: "Deserialization" },
  { name: "tag section (exceptions are disabled)", bytes: [...header, 0x0d, 0x01, 0x00], error: "Deserialization" },
  { name: "type error in a body", wat: `(module (func (result i32) (i64.const 1)))`, error: "Deserialization" },
  {
    name: "export of a missing function",
    bytes: [...header, 0x07, 0x05, 0x01, 0x01, 0x61, 0x00, 0x00],
    error: "Deserialization",
  },
  {
    name: "SIMD (disabled)",
    wat: `(module (func (drop (v128.const i64x2 1 2))))`,
    features: { simd: true },
    error: "Deserialization",
  },
  {
    name: "threads: shared memory",
    wat: `(module (memory 1 1 shared))`,
    features: { threads: true },
    error: "Deserialization",
  },
  {
    name: "threads: atomics",
    wat: `(module (memory 1 1 shared) (func (drop (i32.atomic.load (i32.const 0)))))`,
    features: { threads: true },
    error: "Deserialization",
  },
  {
    name: "saturating float-to-int (disabled in nearcore)",
    wat: `(module (func (drop (i32.trunc_sat_f32_s (f32.const 1)))))`,
    error: "Deserialization",
  },
  {
    name: "tail calls (disabled)",
    wat: `(module (func $f (return_call $f)))`,
    features: { tail_call: true },
    error: "Deserialization",
  },
  {
    name: "two memories",
    wat: `(module (memory 1 2) (memory 3 4))`,
    features: { multi_memory: true },
    error: "Deserialization",
  },
  {
    name: "memory of 65537 pages (over 4 GiB)",
    bytes: [...header, 0x05, 0x05, 0x01, 0x00, 0x81, 0x80, 0x04],
    error: "Deserialization",
  },
  { name: "import from another module", wat: `(module (import "other" "f" (func)))`, error: "Instantiate" },
  { name: "global import", wat: `(module (import "env" "g" (global i32)))`, error: "Instantiate" },
  { name: "table import", wat: `(module (import "env" "t" (table 1 funcref)))`, error: "Instantiate" },
  { name: "memory import", wat: `(module (import "env" "memory" (memory 1)))`, error: "Memory" },
  {
    name: "non-env module wins over a memory import after it",
    wat: `(module (import "x" "f" (func)) (import "env" "m" (memory 1)))`,
    error: "Instantiate",
  },
  {
    name: "more types than max_types_per_contract",
    wat: `(module (type (func)) (type (func (param i32))) (type (func (param i64))))`,
    limits: { maxTypesPerContract: 2 },
    error: "TooManyTypes",
  },
  {
    name: "too many types found before a bad import",
    wat: `(module (type (func)) (type (func (param i32))) (import "x" "f" (func)))`,
    limits: { maxTypesPerContract: 1 },
    error: "TooManyTypes",
  },
  { name: "two tables", wat: `(module (table 1 funcref) (table 1 funcref))`, error: "TooManyTables" },
  { name: "table larger than 10,000 elements", wat: `(module (table 10001 funcref))`, error: "TooManyTableElements" },
  {
    name: "table of exactly 10,000 elements is fine, two tables are not",
    wat: `(module (table 10000 funcref) (table 0 funcref))`,
    error: "TooManyTables",
  },
  {
    name: "imported plus defined functions over the limit",
    wat: `(module (import "env" "a" (func)) (import "env" "b" (func)) (func) (func))`,
    limits: { maxFunctionsNumberPerContract: 3 },
    error: "TooManyFunctions",
  },
  {
    name: "imports alone over the limit",
    wat: `(module (import "env" "a" (func)) (import "env" "b" (func)))`,
    limits: { maxFunctionsNumberPerContract: 1 },
    error: "TooManyFunctions",
  },
  {
    name: "locals summed over functions",
    wat: `(module (func (local i32 i64)) (func (local f32 f32)))`,
    limits: { maxLocalsPerContract: 3 },
    error: "TooManyLocals",
  },
  {
    name: "a million and one locals",
    wat: `(module (func (local i32)) (func))`,
    limits: { maxLocalsPerContract: 0 },
    error: "TooManyLocals",
  },
  {
    name: "function body over the size limit",
    wat: `(module (func (drop (i64.const 1))))`,
    limits: { maxFunctionBodySize: 3 },
    error: "FunctionBodyTooLarge",
  },
  {
    name: "body size wins over locals in the same body",
    wat: `(module (func (local i32) (nop)))`,
    limits: { maxFunctionBodySize: 2, maxLocalsPerContract: 0 },
    error: "FunctionBodyTooLarge",
  },
];

async function bytesOf(c: ErrorCase): Promise<Uint8Array> {
  if (c.wat !== undefined) return wat(c.wat, c.features ?? {}, false, false);
  return Uint8Array.from(c.bytes ?? []);
}

describe("prepareContract errors (nearcore PrepareError)", () => {
  for (const c of CASES) {
    it(`${c.name} -> ${c.error}`, async () => {
      const result = prepareContract(await bytesOf(c), { ...NEARCORE_WASM_LIMITS, ...c.limits });
      expect(result).toEqual({ ok: false, error: c.error });
    });
  }

  it("allows exactly max_types_per_contract types (1,024)", async () => {
    const types = Array.from(
      { length: 1024 },
      (_, i) => `(type (func (param ${"i32 ".repeat(i % 7)}) (result ${i % 2 ? "i64" : "f32"})))`,
    );
    const code = await wat(`(module ${types.join(" ")})`, {}, false, false);
    expect(prepareContract(code, NEARCORE_WASM_LIMITS).ok).toBe(true);
    const oneMore = await wat(`(module ${types.join(" ")} (type (func)))`, {}, false, false);
    expect(prepareContract(oneMore, NEARCORE_WASM_LIMITS)).toEqual({ ok: false, error: "TooManyTypes" });
  });

  it("limit errors win over a malformed section after them, as in nearcore's streaming order", async () => {
    const code = await wat(`(module (import "x" "f" (func)))`);
    const withGarbage = Uint8Array.from([...code, 0x0a, 0x05, 0xff, 0xff]);
    expect(prepareContract(withGarbage, NEARCORE_WASM_LIMITS)).toEqual({ ok: false, error: "Instantiate" });
  });

  it("accepts what nearcore accepts: bulk memory, reference types, multi-value, sign-ext, mutable globals", async () => {
    const code = await wat(`(module
      (global $g (mut i64) (i64.const 0))
      (table 2 funcref) (elem declare func $f)
      (func $f (result i32 i64) (i32.const 1) (i64.const 2))
      (func (export "main") (local externref)
        (memory.fill (i32.const 0) (i32.const 0) (i32.const 1))
        (table.set (i32.const 0) (ref.func $f))
        (global.set $g (i64.extend32_s (i64.const 5)))
        (drop (ref.is_null (local.get 0)))
        (call $f) drop drop)
      (memory 1))`);
    const result = prepareContract(code, NEARCORE_WASM_LIMITS);
    expect(result.ok).toBe(true);
  });
});

describe("prepareContract on random and mutated input", () => {
  it("never throws on random bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 256 }), (bytes) => {
        const result = prepareContract(bytes, NEARCORE_WASM_LIMITS);
        expect(typeof result.ok).toBe("boolean");
      }),
      { numRuns: 500 },
    );
  });

  it("never throws on mutations of real modules, and what it accepts compiles", async () => {
    const seeds = [
      await compileAssemblyScript(AS_SAMPLE_CONTRACT),
      await wat(`(module (import "env" "log_utf8" (func $log (param i64 i64))) (memory 1) (export "memory" (memory 0))
        (table 1 funcref) (elem (i32.const 0) $main) (data (i32.const 0) "hi")
        (func $main (export "main") (local i32) (loop $l (br_if $l (i32.lt_u (local.tee 0 (i32.add (local.get 0) (i32.const 1))) (i32.const 3))))
          (call $log (i64.const 2) (i64.const 0))))`),
    ];
    const mutation = fc.record({
      seed: fc.nat({ max: seeds.length - 1 }),
      edits: fc.array(
        fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom("set", "insert", "delete", "truncate")),
        {
          minLength: 1,
          maxLength: 4,
        },
      ),
    });
    let accepted = 0;
    fc.assert(
      fc.property(mutation, ({ seed, edits }) => {
        const bytes = [...seeds[seed]!];
        for (const [at, value, kind] of edits) {
          const i = at % Math.max(1, bytes.length);
          if (kind === "set") bytes[i] = value;
          else if (kind === "insert") bytes.splice(i, 0, value);
          else if (kind === "delete") bytes.splice(i, 1);
          else bytes.length = i;
        }
        const result = prepareContract(Uint8Array.from(bytes), NEARCORE_WASM_LIMITS);
        if (result.ok) {
          accepted++;
          expect(result.contract.module).toBeInstanceOf(WebAssembly.Module);
        }
      }),
      { numRuns: 400 },
    );
    expect(accepted).toBeGreaterThan(0);
  }, 60_000);
});
