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
    const imports = WebAssembly.Module.imports(result.contract.module).filter((i) => i.module === "env");
    expect(imports).toEqual([
      { module: "env", name: "log_utf8", kind: "function" },
      { module: "env", name: "memory", kind: "memory" },
    ]);
    expect(WebAssembly.Module.exports(result.contract.module).map((e) => e.name)).not.toContain("memory");
    expect(result.contract.exportedFunctions.get("main")).toEqual({ params: [], results: [] });
    expect(result.contract.importedFunctions).toEqual([{ name: "log_utf8", type: { params: [0x7e, 0x7e], results: [] } }]);
  });
});
