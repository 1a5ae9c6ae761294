import { ShardkitError } from "./ShardkitError.js";

/**
 * Why a byte string is not a valid borsh transaction (or action, or delegate action).
 * Every decoding failure surfaces as this one class, so callers (the RPC layer) can map it
 * to nearcore's parse error without catching anything else.
 */
export class TransactionDecodeError extends ShardkitError<"INVALID_TRANSACTION_BYTES"> {
  override readonly name = "TransactionDecodeError";

  constructor(
    /** What was wrong, without the position. */
    readonly reason: string,
    /** Byte offset where decoding stopped. */
    readonly offset: number,
  ) {
    super("INVALID_TRANSACTION_BYTES", `${reason} (at byte ${offset})`);
  }
}
