import { describe, expect, it } from "vitest";
import { decodeModule, encodeModule } from "../../../../src/chain/vm/wasm/wasmModule.js";
import { WasmDecodeError } from "../../../../src/chain/vm/wasm/wasmDecodeError.js";
import { AS_SAMPLE_CONTRACT, compileAssemblyScript } from "./ascFixture.js";
import { wat } from "./watFixture.js";

/** Every section kind and element/data segment form nearcore's feature set allows. */
const ALL_SECTIONS = `(module
  (type $t0 (func (param i32 i64) (result i64)))
  (type $pair (func (result i32 i64)))
  (import "env" "f" (func $imp (type $t0)))
  (table $tab 4 10 funcref)
  (table $ext 1 externref)
  (memory 1 2)
  (global $g (mut i32) (i32.const -7))
  (global $gf f64 (f64.const 1.5))
  (global $gr funcref (ref.func $a))
  (export "a" (func $a))
  (export "mem" (memory 0))
  (export "g" (global $g))
  (export "tab" (table $tab))
  (start $s)
  (elem (i32.const 0) $a $b)
  (elem $passive func $a)
  (elem $decl declare func $b)
  (elem (table $tab) (i32.const 2) funcref (ref.func $a) (ref.null func))
  (data (i32.const 8) "hello")
  (data $d "passive")
  (func $s)
  (func $a (param i32 i64) (result i64) (local f32 f32 i64)
    (block $out (result i64)
      (loop $l
        (drop (br_if $out (local.get 1) (i32.eqz (local.get 0))))
        (br_table $l $l (i32.const 1)))
      (i64.const 5)))
  (func $b (result i32 i64)
    (memory.init $d (i32.const 0) (i32.const 0) (i32.const 4))
    (data.drop $d)
    (memory.copy (i32.const 0) (i32.const 4) (i32.const 4))
    (memory.fill (i32.const 0) (i32.const 1) (i32.const 2))
    (table.init $tab $passive (i32.const 0) (i32.const 0) (i32.const 1))
    (elem.drop $passive)
    (drop (table.grow $tab (ref.null func) (i32.const 1)))
    (drop (i64.extend32_s (i64.const -1)))
    (drop (i32.trunc_sat_f64_u (f64.const 3.9)))
    (drop (select (result i32) (i32.const 1) (i32.const 2) (i32.const 0)))
    (call_indirect $tab (type $t0) (i32.const 1) (i64.const 2) (i32.const 0))
    drop
    (i32.const 1) (i64.const 2)))`;

describe("wasm module reader/writer", () => {
  it("re-encodes wabt-built modules byte for byte", async () => {
    for (const source of [ALL_SECTIONS, "(module)", `(module (func (export "main")))`]) {
      const bytes = await wat(source, {}, true);
      const module = decodeModule(bytes);
      expect(encodeModule(module)).toEqual(bytes);
    }
  });

  it("decodes every element and data form into values", async () => {
    const m = decodeModule(await wat(ALL_SECTIONS));
    expect(m.imports).toHaveLength(1);
    expect(m.tables.map((t) => t.limits)).toEqual([
      { min: 4, max: 10 },
      { min: 1, max: undefined },
    ]);
    expect(m.elements.map((e) => e.flags)).toEqual([0, 1, 3, 4]);
    expect(m.globals[2]?.init).toEqual({ op: "ref.func", functionIndex: 2 });
    expect(m.start).toBe(1);
    expect(m.dataCount).toBe(2);
    expect(m.code).toHaveLength(3);
  });

  it("re-encodes an AssemblyScript contract byte for byte", async () => {
    const bytes = await compileAssemblyScript(AS_SAMPLE_CONTRACT);
    expect(encodeModule(decodeModule(bytes))).toEqual(bytes);
  }, 30_000);

  it("rejects malformed modules with WasmDecodeError", async () => {
    const good = await wat(`(module (func (export "main")))`);
    const bad: Uint8Array[] = [
      good.subarray(0, 7), // truncated header
      Uint8Array.from([...good.subarray(0, 8), 0x0d, 0x00]), // unknown section id 13 (tags)
      Uint8Array.from([...good, 0x01, 0x01, 0x00]), // type section after the code section
      Uint8Array.from([...good.subarray(0, 8), 0x01, 0x05, 0x01, 0x60, 0x00, 0x00]), // section longer than the module
    ];
    for (const bytes of bad) expect(() => decodeModule(bytes)).toThrow(WasmDecodeError);
  });
});
