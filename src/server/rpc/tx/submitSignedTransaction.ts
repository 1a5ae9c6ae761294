import { InvalidTransactionError, TransactionDecodeError } from "../../../chain/node.js";
import { base58Encode } from "@shardkit/primitives/base58";
import { Base64Error, base64Decode } from "../../../chain/primitives/base64.js";
import { decodeSignedTransaction } from "../../../chain/transaction/index.js";
import { InvalidTransactionRpcError, ParseError } from "../../errors.js";
import type { RpcContext } from "../context.js";

/** The bytes of `signed_tx_base64`; bad base64 or Borsh is a params error, as in nearcore. */
function signedTransactionBytes(text: string): Uint8Array {
  try {
    return base64Decode(text);
  } catch (error) {
    if (error instanceof Base64Error) throw new ParseError(`Failed parsing args: invalid signed_tx_base64: ${error.message}`);
    throw error;
  }
}

/** Runs a chain call on a signed transaction, turning its refusals into nearcore's RPC errors. */
function withTransaction<T>(base64: string, call: (bytes: Uint8Array) => T, onInvalid?: (bytes: Uint8Array) => T): T {
  const bytes = signedTransactionBytes(base64);
  try {
    return call(bytes);
  } catch (error) {
    if (error instanceof TransactionDecodeError) throw new ParseError(`Failed to decode transaction: ${error.message}`);
    if (error instanceof InvalidTransactionError) {
      if (onInvalid !== undefined) return onInvalid(bytes);
      throw new InvalidTransactionRpcError(error.error);
    }
    throw error;
  }
}

/**
 * Hands a signed transaction to the chain and returns its hash. A transaction the chain already
 * knows is answered with its hash (resubmission is idempotent). With `validate: false` (NONE,
 * broadcast_tx_async) an invalid transaction is dropped silently, as nearcore's
 * fire-and-forget paths do; undecodable bytes are refused either way.
 */
export function submitSignedTransaction(ctx: RpcContext, base64: string, validate = true): string {
  return withTransaction(
    base64,
    (bytes) => ctx.chain.submitTransaction(bytes).hash,
    validate ? undefined : (bytes) => base58Encode(decodeSignedTransaction(bytes).hash),
  );
}

/**
 * The hash of a signed transaction, validated against the head if the chain does not know it,
 * but never submitted: nearcore's `tx` with `signed_tx_base64` only checks.
 */
export function checkSignedTransaction(ctx: RpcContext, base64: string): string {
  return withTransaction(base64, (bytes) => {
    const hash = base58Encode(decodeSignedTransaction(bytes).hash);
    return ctx.chain.transactionStatus(hash) === undefined ? ctx.chain.checkTransaction(bytes) : hash;
  });
}
