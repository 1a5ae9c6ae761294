import type { PublicKey } from "./publicKey.js";
import type { Action } from "./action.js";
import type { Signature } from "./signature.js";
import type { TransactionNonce } from "./transactionNonce.js";

/** How a V1 transaction's nonce is checked: any higher nonce (borsh 0) or exactly +1 (borsh 1). */
export type NonceMode = "Monotonic" | "Strict";

/** The original transaction; borsh has no tag byte for it. */
export interface TransactionV0 {
  readonly version: 0;
  readonly signerId: string;
  readonly publicKey: PublicKey;
  readonly nonce: bigint;
  readonly receiverId: string;
  /** 32 bytes. */
  readonly blockHash: Uint8Array;
  readonly actions: readonly Action[];
}

/** Gas-key transaction (protocol 2.13): borsh `0x01 ‖ TransactionV1`. */
export interface TransactionV1 {
  readonly version: 1;
  readonly signerId: string;
  readonly publicKey: PublicKey;
  readonly nonce: TransactionNonce;
  readonly receiverId: string;
  readonly blockHash: Uint8Array;
  readonly actions: readonly Action[];
  readonly nonceMode: NonceMode;
}

export type Transaction = TransactionV0 | TransactionV1;

/** borsh(Transaction) ‖ borsh(Signature); the signature covers sha256(borsh(Transaction)). */
export interface SignedTransaction {
  readonly transaction: Transaction;
  readonly signature: Signature;
}

/** A decoded signed transaction with what nearcore computes on deserialization. */
export interface DecodedSignedTransaction extends SignedTransaction {
  /** sha256 of the borsh transaction bytes (tag included for V1): the tx hash and signed message. */
  readonly hash: Uint8Array;
  /** Length of the borsh transaction bytes, without the signature (nearcore `get_size`). */
  readonly size: number;
}
