import { ShardkitError } from "@shardkit/primitives/ShardkitError";

/**
 * nearcore's `PrepareError` (runtime/near-vm-runner/src/logic/errors.rs), serialised as in
 * `CompilationError: { PrepareError: ... }`.
 */
export type PrepareErrorJson =
  | "Serialization"
  | "Deserialization"
  | "InternalMemoryDeclared"
  | "GasInstrumentation"
  | "StackHeightInstrumentation"
  | "Instantiate"
  | "Memory"
  | "TooManyFunctions"
  | "TooManyLocals"
  | "TooManyTables"
  | "TooManyTableElements"
  | "FunctionBodyTooLarge"
  | "TooManyTypes";

/** Thrown inside preparation to stop at the first limit violation, in nearcore's order. */
export class PrepareFailure extends ShardkitError<"PREPARE_ERROR"> {
  override readonly name = "PrepareFailure";
  constructor(readonly error: PrepareErrorJson) {
    super("PREPARE_ERROR", error);
  }
}
