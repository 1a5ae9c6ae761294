import type { WasmTrap } from "./FunctionCallError.js";

/**
 * The nearcore WasmTrap for an exception the guest raised, or undefined when the exception
 * is not a trap (then it is a host bug and must propagate). V8 reports traps as
 * WebAssembly.RuntimeError with a fixed message per trap kind, and stack exhaustion as a
 * RangeError.
 */
export function wasmTrapOf(error: unknown): WasmTrap | undefined {
  if (error instanceof RangeError && error.message.includes("Maximum call stack size exceeded")) return "StackOverflow";
  if (!(error instanceof WebAssembly.RuntimeError)) return undefined;
  const m = error.message;
  if (m.includes("unreachable")) return "Unreachable";
  if (m.includes("memory access out of bounds") || m.includes("data segment") || m.includes("out of bounds memory")) return "MemoryOutOfBounds";
  if (m.includes("divide by zero") || m.includes("remainder by zero") || m.includes("integer overflow")) return "IllegalArithmetic";
  if (m.includes("unrepresentable") || m.includes("invalid conversion")) return "IllegalArithmetic";
  if (m.includes("table index is out of bounds") || m.includes("element segment")) return "CallIndirectOOB";
  // V8 words a null table entry and a signature mismatch alike ("null function or function
  // signature mismatch"); nearcore (wasmtime) tells them apart. Deviation: both read as a null call.
  if (m.includes("null function")) return "IndirectCallToNull";
  if (m.includes("signature mismatch")) return "IncorrectCallIndirectSignature";
  return "GenericTrap";
}
