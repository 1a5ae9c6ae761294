import { describe, expect, it } from "vitest";
import { viewErrorMessage, vmErrorJson, type VmError } from "../../../src/chain/vm/FunctionCallError.js";
import { rustDebugString } from "../../../src/chain/vm/rustDebug.js";

describe("VM errors as nearcore renders them", () => {
  it.each<[VmError, unknown, string]>([
    [{ kind: "HostError", error: { name: "GasExceeded" } }, { ExecutionError: "Exceeded the prepaid gas." }, "HostError(GasExceeded)"],
    [
      { kind: "HostError", error: { name: "InvalidPromiseIndex", fields: { promise_idx: 3n } } },
      { ExecutionError: "3 does not correspond to existing promises" },
      "HostError(InvalidPromiseIndex { promise_idx: 3 })",
    ],
    [
      { kind: "HostError", error: { name: "KeyLengthExceeded", fields: { length: 3000n, limit: 2048n } } },
      { ExecutionError: "The length of a storage key 3000 exceeds the limit 2048" },
      "HostError(KeyLengthExceeded { length: 3000, limit: 2048 })",
    ],
    [
      { kind: "HostError", error: { name: "GuestPanic", fields: { panic_msg: "line\nbreak \\ \"q\"" } } },
      { ExecutionError: 'Smart contract panicked: line\nbreak \\ "q"' },
      'HostError(GuestPanic { panic_msg: "line\\nbreak \\\\ \\"q\\"" })',
    ],
    [{ kind: "WasmTrap", trap: "StackOverflow" }, { ExecutionError: "WebAssembly trap: Stack overflow." }, "WasmTrap(StackOverflow)"],
    [{ kind: "WasmTrap", trap: "IllegalArithmetic" }, { ExecutionError: "WebAssembly trap: An arithmetic exception, e.g. divided by zero." }, "WasmTrap(IllegalArithmetic)"],
    [
      { kind: "LinkError", msg: "unknown or invalid import" },
      { ExecutionError: "Link Error: unknown or invalid import" },
      'LinkError { msg: "unknown or invalid import" }',
    ],
    [{ kind: "MethodResolveError", error: "MethodNotFound" }, { MethodResolveError: "MethodNotFound" }, "MethodResolveError(MethodNotFound)"],
    [
      { kind: "CompilationError", error: { kind: "PrepareError", error: "Deserialization" } },
      { CompilationError: { PrepareError: "Deserialization" } },
      "CompilationError(PrepareError(Deserialization))",
    ],
    [
      { kind: "CompilationError", error: { kind: "CodeDoesNotExist", accountId: "a.near" } },
      { CompilationError: { CodeDoesNotExist: { account_id: "a.near" } } },
      'CompilationError(CodeDoesNotExist { account_id: AccountId("a.near") })',
    ],
  ])("%#: JSON and legacy message", (error, json, debug) => {
    expect(vmErrorJson(error)).toEqual(json);
    expect(viewErrorMessage(error)).toBe(`wasm execution failed with error: ${debug}`);
  });

  it("escapes strings as Rust's Debug does", () => {
    expect(rustDebugString("tab\tnul\0bell\u0007é")).toBe('"tab\\tnul\\0bell\\u{7}é"');
  });
});
