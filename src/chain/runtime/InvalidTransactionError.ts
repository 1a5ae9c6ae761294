import type { InvalidTxErrorJson } from "./invalidTxError.js";

/**
 * A transaction the chain refuses (at submission) or drops (at inclusion). `error` is the
 * nearcore `InvalidTxError` JSON value, ready to be placed under
 * `data.TxExecutionError.InvalidTxError` of an INVALID_TRANSACTION RPC error.
 */
export class InvalidTransactionError extends Error {
  override readonly name = "InvalidTransactionError";

  constructor(readonly error: InvalidTxErrorJson) {
    super(`invalid transaction: ${JSON.stringify(error)}`);
  }
}
