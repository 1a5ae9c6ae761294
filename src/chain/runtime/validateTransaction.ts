import { isValidAccountId } from "@shardkit/primitives/accountId";
import { verifyTransactionSignature, type DecodedSignedTransaction } from "../transaction/index.js";
import type { InvalidTxErrorJson } from "./invalidTxError.js";
import type { RuntimeParameters } from "./parameters.js";
import { validateActions } from "./validateActions.js";

/** Borsh size of a signature: key type byte + data. */
const signatureSize = (stx: DecodedSignedTransaction): number => 1 + stx.signature.data.length;

/**
 * The state-independent checks, in nearcore's order (verifier.rs `validate_transaction`, then
 * transaction.rs `ValidatedTransaction::new`): actions, size, signature. Signer and receiver
 * ids are checked first, as older nearcore did; our decoder already refuses invalid ids, so
 * only a hand-built transaction can fail them.
 *
 * The size is the wire size (transaction bytes + signature) compared with
 * `max_transaction_size`: nearcore's `size_for_limits` from PostQuantumSignatures (protocol 85)
 * on; `get_size()` before that excluded the signature, which a 3,309-byte ML-DSA-65 one made
 * matter.
 */
export function validateTransaction(
  p: RuntimeParameters,
  stx: DecodedSignedTransaction,
  protocolVersion: number,
): InvalidTxErrorJson | undefined {
  const tx = stx.transaction;
  if (!isValidAccountId(tx.signerId)) return { InvalidSignerId: { signer_id: tx.signerId } };
  if (!isValidAccountId(tx.receiverId)) return { InvalidReceiverId: { receiver_id: tx.receiverId } };
  const actionsError = validateActions(p, tx.actions, tx.receiverId, protocolVersion);
  if (actionsError !== undefined) return { ActionsValidation: actionsError };
  const size = stx.size + signatureSize(stx);
  if (size > p.limits.maxTransactionSize) {
    return { TransactionSizeExceeded: { size, limit: p.limits.maxTransactionSize } };
  }
  if (!verifyTransactionSignature(stx)) return "InvalidSignature";
  return undefined;
}
