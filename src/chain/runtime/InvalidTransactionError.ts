import { ShardkitError } from "@shardkit/primitives/ShardkitError";
import type { InvalidTxErrorJson } from "./invalidTxError.js";

/**
 * A transaction the chain refuses (at submission) or drops (at inclusion). `error` is the
 * nearcore `InvalidTxError` JSON value, ready to be placed under
 * `data.TxExecutionError.InvalidTxError` of an INVALID_TRANSACTION RPC error.
 */
export class InvalidTransactionError extends ShardkitError<"INVALID_TRANSACTION"> {
  override readonly name = "InvalidTransactionError";

  constructor(readonly error: InvalidTxErrorJson) {
    super("INVALID_TRANSACTION", "invalid transaction", { details: JSON.stringify(error) });
  }
}
