import { sha256 } from "@noble/hashes/sha256";
import { base58Encode } from "@shardkit/primitives/base58";
import type { Action } from "@shardkit/primitives/action";
import type { SignedTransaction, Transaction } from "@shardkit/primitives/transaction";
import { encodeSignedTransaction, encodeTransaction } from "@shardkit/primitives/transactionBorsh";
import { bytesToBase64 } from "../encoding/base64.js";
import type { Signer } from "./keys.js";

export type { SignedTransaction, Transaction };

/** What a (V0) transaction needs besides its signer's key. */
export interface TransactionFields {
  signerId: string;
  receiverId: string;
  /** Must be above the access key's nonce (usually its nonce + 1). */
  nonce: bigint;
  /** 32 bytes: a recent block's hash (the transaction expires after the validity period). */
  blockHash: Uint8Array;
  actions: readonly Action[];
}

/** A signed transaction ready for `send_tx`, with its hash. */
export interface SignedTransactionPayload {
  transaction: SignedTransaction;
  /** base58 sha256(borsh(Transaction)): the transaction hash `tx` and explorers use. */
  hash: string;
  /** base64 borsh(SignedTransaction): the `signed_tx_base64` param. */
  signedTxBase64: string;
}

/**
 * Builds a V0 transaction (the form every NEAR client sends), Borsh-encodes it with the
 * shardkit node's own codec, and signs sha256 of the bytes with `signer`.
 */
export async function signTransaction(fields: TransactionFields, signer: Signer): Promise<SignedTransactionPayload> {
  const transaction: Transaction = {
    version: 0,
    signerId: fields.signerId,
    publicKey: signer.publicKey,
    nonce: fields.nonce,
    receiverId: fields.receiverId,
    blockHash: fields.blockHash,
    actions: fields.actions,
  };
  const hash = sha256(encodeTransaction(transaction));
  const signature = { keyType: signer.publicKey.keyType, data: await signer.sign(hash) };
  const signed: SignedTransaction = { transaction, signature };
  return { transaction: signed, hash: base58Encode(hash), signedTxBase64: bytesToBase64(encodeSignedTransaction(signed)) };
}
