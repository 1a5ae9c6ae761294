import type { FunctionCallErrorJson, PrepareErrorJson } from "../runtime/actionError.js";
import { hostErrorDebug, hostErrorDisplay, type HostError } from "./HostError.js";
import { rustDebugString } from "./rustDebug.js";

/*
 * nearcore near-vm-runner `FunctionCallError` (logic/errors.rs): why a contract call aborted.
 * Two renderings matter on the wire: the JSON of near-primitives' FunctionCallError
 * (errors.rs `From` impl / runtime conversions.rs) in outcomes and `vm_error`, and the Rust
 * Debug text nearcore puts after "wasm execution failed with error: " in view-call messages.
 */

export type WasmTrap =
  | "Unreachable"
  | "IncorrectCallIndirectSignature"
  | "MemoryOutOfBounds"
  | "CallIndirectOOB"
  | "IllegalArithmetic"
  | "MisalignedAtomicAccess"
  | "IndirectCallToNull"
  | "StackOverflow"
  | "GenericTrap";

export type MethodResolveError = "MethodEmptyName" | "MethodNotFound" | "MethodInvalidSignature";

export type CompilationError =
  | { readonly kind: "CodeDoesNotExist"; readonly accountId: string }
  | { readonly kind: "PrepareError"; readonly error: PrepareErrorJson }
  | { readonly kind: "WasmerCompileError"; readonly msg: string };

export type VmError =
  | { readonly kind: "CompilationError"; readonly error: CompilationError }
  | { readonly kind: "LinkError"; readonly msg: string }
  | { readonly kind: "MethodResolveError"; readonly error: MethodResolveError }
  | { readonly kind: "WasmTrap"; readonly trap: WasmTrap }
  | { readonly kind: "HostError"; readonly error: HostError };

const TRAP_DISPLAY: Record<WasmTrap, string> = {
  Unreachable: "An `unreachable` opcode was executed.",
  IncorrectCallIndirectSignature: "Call indirect incorrect signature trap.",
  MemoryOutOfBounds: "Memory out of bounds trap.",
  CallIndirectOOB: "Call indirect out of bounds trap.",
  IllegalArithmetic: "An arithmetic exception, e.g. divided by zero.",
  MisalignedAtomicAccess: "Misaligned atomic access trap.",
  IndirectCallToNull: "Indirect call to null.",
  StackOverflow: "Stack overflow.",
  GenericTrap: "Generic trap.",
};

/** The near-primitives JSON of a VM error. */
export function vmErrorJson(e: VmError): FunctionCallErrorJson {
  switch (e.kind) {
    case "CompilationError": {
      const c = e.error;
      if (c.kind === "CodeDoesNotExist") return { CompilationError: { CodeDoesNotExist: { account_id: c.accountId } } };
      if (c.kind === "PrepareError") return { CompilationError: { PrepareError: c.error } };
      return { CompilationError: { WasmerCompileError: { msg: c.msg } } };
    }
    case "LinkError":
      return { ExecutionError: `Link Error: ${e.msg}` };
    case "MethodResolveError":
      return { MethodResolveError: e.error };
    case "WasmTrap":
      return { ExecutionError: `WebAssembly trap: ${TRAP_DISPLAY[e.trap]}` };
    case "HostError":
      return { ExecutionError: hostErrorDisplay(e.error) };
  }
}

/** Rust Debug of the VM error, e.g. `HostError(GuestPanic { panic_msg: "boom" })`. */
export function vmErrorDebug(e: VmError): string {
  switch (e.kind) {
    case "CompilationError": {
      const c = e.error;
      // near-account-id's AccountId Debug is a tuple struct: AccountId("x").
      if (c.kind === "CodeDoesNotExist") return `CompilationError(CodeDoesNotExist { account_id: AccountId(${rustDebugString(c.accountId)}) })`;
      if (c.kind === "PrepareError") return `CompilationError(PrepareError(${c.error}))`;
      return `CompilationError(WasmerCompileError { msg: ${rustDebugString(c.msg)} })`;
    }
    case "LinkError":
      return `LinkError { msg: ${rustDebugString(e.msg)} }`;
    case "MethodResolveError":
      return `MethodResolveError(${e.error})`;
    case "WasmTrap":
      return `WasmTrap(${e.trap})`;
    case "HostError":
      return `HostError(${hostErrorDebug(e.error)})`;
  }
}

/** nearcore's legacy view-call message (state_viewer `call_function`). */
export function viewErrorMessage(e: VmError): string {
  return `wasm execution failed with error: ${vmErrorDebug(e)}`;
}
