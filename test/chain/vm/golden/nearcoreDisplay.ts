import { type VmError, vmErrorJson } from "../../../../src/chain/vm/FunctionCallError.js";

/** nearcore's Display of PrepareError (logic/errors.rs), as its tests print it after "PrepareError: ". */
const PREPARE_ERROR_DISPLAY: Readonly<Record<string, string>> = {
  Serialization: "Error happened while serializing the module.",
  Deserialization: "Error happened while deserializing the module.",
  InternalMemoryDeclared: "Internal memory declaration has been found in the module.",
  GasInstrumentation: "Gas instrumentation failed.",
  StackHeightInstrumentation: "Stack instrumentation failed.",
  Instantiate: "Error happened during instantiation.",
  Memory: "Error creating memory.",
  TooManyFunctions: "Too many functions in contract.",
  TooManyLocals: "Too many locals declared in the contract.",
};

/** The text nearcore's VM tests print as `Err: ...`: the Display of its FunctionCallError. */
export function nearcoreDisplay(error: VmError): string {
  switch (error.kind) {
    case "CompilationError":
      if (error.error.kind === "PrepareError")
        return `PrepareError: ${PREPARE_ERROR_DISPLAY[error.error.error] ?? error.error.error}`;
      return JSON.stringify(vmErrorJson(error));
    case "MethodResolveError":
      return error.error;
    case "LinkError":
      return error.msg;
    case "WasmTrap":
    case "HostError": {
      const json = vmErrorJson(error);
      return "ExecutionError" in json ? json.ExecutionError : JSON.stringify(json);
    }
  }
}
