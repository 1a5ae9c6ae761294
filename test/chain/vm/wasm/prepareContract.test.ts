import { describe, expect, it } from "vitest";
import { NEARCORE_WASM_LIMITS, prepareContract } from "../../../../src/chain/vm/wasm/prepareContract.js";
import { wat } from "./watFixture.js";

describe("prepareContract", () => {
  it("replaces the module's memory by an imported env.memory and drops the memory export", async () => {
    const code = await wat(`(module
      (import "env" "log_utf8" (func $log (param i64 i64)))
      (memory 1) (export "memory" (memory 0)) (data (i32.const 0) "hi")
      (func (export "main") (call $log (i64.const 2) (i64.const 0))))`);
    const result = prepareContract(code, NEARCORE_WASM_LIMITS);
    if (!result.ok) throw new Error(result.error);
    expect(WebAssembly.Module.imports(result.contract.module)).toEqual([
      // Gas and stack counters live in wasm globals: the host is called only when gas runs low.
      { module: "internal", name: "gas_checkpoint", kind: "function" },
      { module: "internal", name: "finite_wasm_stack_exhausted", kind: "function" },
      { module: "internal", name: "finite_wasm_unstack", kind: "function" },
      { module: "env", name: "log_utf8", kind: "function" },
      { module: "env", name: "memory", kind: "memory" },
    ]);
    expect(WebAssembly.Module.exports(result.contract.module).map((e) => e.name)).not.toContain("memory");
    expect(result.contract.exportedFunctions.get("main")).toEqual({ params: [], results: [] });
    expect(result.contract.importedFunctions).toEqual([
      { name: "log_utf8", type: { params: [0x7e, 0x7e], results: [] } },
    ]);
  });

  it("is pure: the same code prepares to the same bytes, whatever was prepared before", async () => {
    const a = await wat(`(module (func (export "main") (local f64) (local.set 0 (f64.sqrt (f64.const 2)))))`);
    const b = await wat(
      `(module (memory 1) (func (export "x") (memory.fill (i32.const 0) (i32.const 1) (i32.const 2))))`,
    );
    const first = prepareContract(a, NEARCORE_WASM_LIMITS);
    prepareContract(b, NEARCORE_WASM_LIMITS);
    const again = prepareContract(a, NEARCORE_WASM_LIMITS);
    if (!first.ok || !again.ok) throw new Error("preparation failed");
    expect(again.contract.code).toEqual(first.contract.code);
  });

  it("imports the memory with the limits' page counts", async () => {
    const result = prepareContract(await wat(`(module (memory 3))`), {
      ...NEARCORE_WASM_LIMITS,
      initialMemoryPages: 2,
      maxMemoryPages: 5,
    });
    if (!result.ok) throw new Error(result.error);
    const memory = new WebAssembly.Memory({ initial: 2, maximum: 5 });
    const instance = new WebAssembly.Instance(result.contract.module, {
      env: { memory },
      internal: { gas_checkpoint: () => {}, finite_wasm_stack_exhausted: () => {}, finite_wasm_unstack: () => {} },
    });
    expect(instance).toBeInstanceOf(WebAssembly.Instance);
    // A memory of the wrong size does not link.
    expect(
      () =>
        new WebAssembly.Instance(result.contract.module, {
          env: { memory: new WebAssembly.Memory({ initial: 1, maximum: 5 }) },
          internal: { gas_checkpoint: () => {}, finite_wasm_stack_exhausted: () => {}, finite_wasm_unstack: () => {} },
        }),
    ).toThrow(WebAssembly.LinkError);
  });
});
