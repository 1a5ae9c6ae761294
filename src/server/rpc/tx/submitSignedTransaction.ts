import { InvalidTransactionError, TransactionDecodeError } from "../../../chain/node.js";
import { base58Encode } from "../../../chain/primitives/base58.js";
import { Base64Error, base64Decode } from "../../../chain/primitives/base64.js";
import { decodeSignedTransaction } from "../../../chain/transaction/index.js";
import { InvalidTransactionRpcError, ParseError } from "../../errors.js";
import type { RpcContext } from "../context.js";

/** The bytes of `signed_tx_base64`; bad base64 or Borsh is a params error, as in nearcore. */
export function signedTransactionBytes(text: string): Uint8Array {
  try {
    return base64Decode(text);
  } catch (error) {
    if (error instanceof Base64Error) throw new ParseError(`Failed parsing args: invalid signed_tx_base64: ${error.message}`);
    throw error;
  }
}

/**
 * Hands a signed transaction to the chain and returns its hash. A transaction the chain already
 * knows is not validated again (resubmission is idempotent). With `validate: false` (NONE,
 * broadcast_tx_async) an invalid transaction is dropped silently, as nearcore's
 * fire-and-forget paths do; undecodable bytes are refused either way.
 */
export function submitSignedTransaction(ctx: RpcContext, base64: string, validate = true): string {
  const bytes = signedTransactionBytes(base64);
  try {
    return ctx.chain.submitTransaction(bytes).hash;
  } catch (error) {
    if (error instanceof TransactionDecodeError) {
      throw new ParseError(`Failed parsing args: invalid signed transaction: ${error.message}`);
    }
    if (error instanceof InvalidTransactionError) {
      if (!validate) return base58Encode(decodeSignedTransaction(bytes).hash);
      throw new InvalidTransactionRpcError(error.error);
    }
    throw error;
  }
}
