import type { PublicKey } from "@shardkit/primitives/publicKey";
import type {
  DelegateAction,
  DelegateActionV2,
  SignedDelegateAction,
  VersionedSignedDelegateAction,
} from "@shardkit/primitives/action";
import { delegateActionHash, delegateActionV2Hash } from "./delegateActionHash.js";
import type { SignedTransaction, Transaction } from "@shardkit/primitives/transaction";
import { transactionHash } from "./transactionCodec.js";

/**
 * Anything that signs a 32-byte hash with the key it names. Both `ed25519FromSeed(seed)`
 * (primitives) and `secp256k1FromSecret(secret)` satisfy it.
 */
export interface TransactionSigner {
  readonly publicKey: PublicKey;
  sign(hash: Uint8Array): Uint8Array;
}

/** Signs sha256(borsh(tx)), as near-api-js and nearcore do. */
export function signTransaction(transaction: Transaction, signer: TransactionSigner): SignedTransaction {
  const data = signer.sign(transactionHash(transaction));
  return { transaction, signature: { keyType: signer.publicKey.keyType, data } };
}

/** Builds a Delegate (tag 8) action signed over the NEP-461 hash of `delegateAction`. */
export function signDelegateAction(
  delegateAction: DelegateAction,
  signer: TransactionSigner,
): SignedDelegateAction {
  const data = signer.sign(delegateActionHash(delegateAction));
  return { type: "Delegate", delegateAction, signature: { keyType: signer.publicKey.keyType, data } };
}

/** Builds a DelegateV2 (tag 14) action signed over the NEP-461 (2^30+611) hash of its V2 payload. */
export function signDelegateActionV2(
  delegateAction: DelegateActionV2,
  signer: TransactionSigner,
): VersionedSignedDelegateAction {
  const payload = { version: "V2", delegateAction } as const;
  const data = signer.sign(delegateActionV2Hash(payload));
  return { type: "DelegateV2", payload, signature: { keyType: signer.publicKey.keyType, data } };
}
