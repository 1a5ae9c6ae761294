import { assertValidAccountId } from "./accountId.js";
import { BorshWriter } from "./borshWriter.js";
import type { Action } from "./action.js";
import { readAction, writeAction } from "./actionCodec.js";
import { writeSignature, type Signature } from "./signature.js";
import type { NonceMode, SignedTransaction, Transaction } from "./transaction.js";
import { readTransactionNonce, writeTransactionNonce } from "./transactionNonce.js";
import { TxReader } from "./TxReader.js";
import { writePublicKey } from "./writePublicKey.js";

/*
 * Pure Borsh codec (no hashing, no node: imports: the browser client package compiles this
 * same file) of nearcore's `Transaction` (core/primitives/src/transaction.rs): V0 is
 * untagged, V1 is `0x01 ‖ borsh(TransactionV1)`. nearcore tells them apart from the first
 * two bytes. A V0 starts with the u32 length of signer_id; account ids are at most 64 bytes,
 * so its second byte is 0. A V1's second byte is the low byte of that length, never 0.
 */

const BLOCK_HASH_LEN = 32;
const V1_TAG = 1;

function readActions(r: TxReader): Action[] {
  const count = r.vecLength("actions", 1);
  const actions: Action[] = [];
  for (let i = 0; i < count; i++) actions.push(readAction(r, false));
  return actions;
}

function readNonceMode(r: TxReader): NonceMode {
  const at = r.position;
  const tag = r.u8("nonce_mode");
  if (tag === 0) return "Monotonic";
  if (tag === 1) return "Strict";
  return r.fail(`nonce_mode: unknown NonceMode tag ${tag}`, at);
}

function readTransaction(r: TxReader, bytes: Uint8Array): Transaction {
  if (bytes.length < 2) r.fail(`transaction: unexpected end of data (need 2 bytes, ${bytes.length} left)`, 0);
  const b0 = bytes[0]!;
  const b1 = bytes[1]!;
  if (b1 === 0) {
    return {
      version: 0,
      signerId: r.accountId("signer_id"),
      publicKey: r.publicKey("public_key"),
      nonce: r.u64("nonce"),
      receiverId: r.accountId("receiver_id"),
      blockHash: r.fixed(BLOCK_HASH_LEN, "block_hash"),
      actions: readActions(r),
    };
  }
  if (b0 !== V1_TAG) return r.fail(`invalid transaction version tag: ${b0}`, 0);
  r.u8("version");
  return {
    version: 1,
    signerId: r.accountId("signer_id"),
    publicKey: r.publicKey("public_key"),
    nonce: readTransactionNonce(r, "nonce"),
    receiverId: r.accountId("receiver_id"),
    blockHash: r.fixed(BLOCK_HASH_LEN, "block_hash"),
    actions: readActions(r),
    nonceMode: readNonceMode(r),
  };
}

function writeTransaction(w: BorshWriter, tx: Transaction): void {
  assertValidAccountId(tx.signerId);
  assertValidAccountId(tx.receiverId);
  if (tx.blockHash.length !== BLOCK_HASH_LEN)
    throw new RangeError(`block_hash must be 32 bytes, got ${tx.blockHash.length}`);
  if (tx.version === 1) w.u8(V1_TAG);
  w.string(tx.signerId);
  writePublicKey(w, tx.publicKey);
  if (tx.version === 0) w.u64(tx.nonce);
  else writeTransactionNonce(w, tx.nonce);
  w.string(tx.receiverId).fixed(tx.blockHash).u32(tx.actions.length);
  for (const a of tx.actions) writeAction(w, a);
  if (tx.version === 1) w.u8(tx.nonceMode === "Monotonic" ? 0 : 1);
}

/** borsh(Transaction): the bytes that are hashed and signed. */
export function encodeTransaction(tx: Transaction): Uint8Array {
  const w = new BorshWriter();
  writeTransaction(w, tx);
  return w.toBytes();
}

/** Decodes a borsh Transaction with no trailing bytes; throws TransactionDecodeError. */
export function decodeTransaction(bytes: Uint8Array): Transaction {
  const r = new TxReader(bytes);
  const tx = readTransaction(r, bytes);
  r.end("transaction");
  return tx;
}

/** borsh(SignedTransaction) = borsh(Transaction) ‖ borsh(Signature), the `signed_tx_base64` payload. */
export function encodeSignedTransaction(stx: SignedTransaction): Uint8Array {
  const w = new BorshWriter();
  writeTransaction(w, stx.transaction);
  writeSignature(w, stx.signature);
  return w.toBytes();
}

/** A decoded SignedTransaction with the transaction's bytes as received (what its hash covers). */
export interface SignedTransactionParts {
  transaction: Transaction;
  signature: Signature;
  transactionBytes: Uint8Array;
}

/**
 * Decodes a borsh SignedTransaction (no trailing bytes); decoding accepts only canonical
 * encodings, so `transactionBytes` are the bytes nearcore would re-serialize. Throws
 * TransactionDecodeError on any malformation.
 */
export function decodeSignedTransactionParts(bytes: Uint8Array): SignedTransactionParts {
  const r = new TxReader(bytes);
  const transaction = readTransaction(r, bytes);
  const transactionBytes = r.consumedSince(0);
  const signature = r.signature("signature");
  r.end("signed transaction");
  return { transaction, signature, transactionBytes };
}
