import { sha256 } from "../primitives/sha256.js";
import type { DecodedSignedTransaction, Transaction } from "@shardkit/primitives/transaction";
import { decodeSignedTransactionParts, encodeTransaction } from "@shardkit/primitives/transactionBorsh";

// The server's side of the transaction codec: the Borsh layouts live in transactionBorsh.ts
// (shared with the browser client package); hashing here goes through node:crypto.
export { decodeTransaction, encodeSignedTransaction, encodeTransaction } from "@shardkit/primitives/transactionBorsh";

/** sha256(borsh(Transaction)): the transaction hash, which is also what gets signed. */
export function transactionHash(tx: Transaction): Uint8Array {
  return sha256(encodeTransaction(tx));
}

/**
 * Decodes a borsh SignedTransaction (no trailing bytes) and computes its hash from the
 * transaction bytes as received. Throws TransactionDecodeError on any malformation.
 */
export function decodeSignedTransaction(bytes: Uint8Array): DecodedSignedTransaction {
  const { transaction, signature, transactionBytes } = decodeSignedTransactionParts(bytes);
  return { transaction, signature, hash: sha256(transactionBytes), size: transactionBytes.length };
}
