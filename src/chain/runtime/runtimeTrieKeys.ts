import { bytesToLatin1 } from "../primitives/latin1.js";
import { withTail } from "../store/trieKeys.js";

/*
 * Trie keys of the runtime's own records, with nearcore's column bytes
 * (core/primitives/src/trie_key.rs `col`):
 *   3 RECEIVED_DATA        3 ‖ receiver ‖ ',' ‖ data_id     → borsh Option<Vec<u8>>
 *   4 POSTPONED_RECEIPT_ID 4 ‖ receiver ‖ ',' ‖ data_id     → receipt_id (32 bytes)
 *   5 PENDING_DATA_COUNT   5 ‖ receiver ‖ ',' ‖ receipt_id  → u32 LE
 *   6 POSTPONED_RECEIPT    6 ‖ receiver ‖ ',' ‖ receipt_id  → borsh Receipt
 *   7 DELAYED_RECEIPT      7                                → indices {first u64, next u64}
 *                          7 ‖ u64_le(index)                 → borsh Receipt
 * The delayed queue is per shard (one per trie), FIFO from `first` to `next - 1`.
 */

const perReceiver = (col: string, receiverId: string, id: Uint8Array): string => withTail(`${col}${receiverId},`, id);

export const receivedDataKey = (receiverId: string, dataId: Uint8Array): string => perReceiver("\x03", receiverId, dataId);
export const postponedReceiptIdKey = (receiverId: string, dataId: Uint8Array): string => perReceiver("\x04", receiverId, dataId);
export const pendingDataCountKey = (receiverId: string, receiptId: Uint8Array): string => perReceiver("\x05", receiverId, receiptId);
export const postponedReceiptKey = (receiverId: string, receiptId: Uint8Array): string => perReceiver("\x06", receiverId, receiptId);

export const DELAYED_RECEIPT_INDICES_KEY = "\x07";

export function delayedReceiptKey(index: bigint): string {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(index);
  return DELAYED_RECEIPT_INDICES_KEY + bytesToLatin1(b);
}

/*
 * Global contracts (trie_key.rs col 18 GLOBAL_CONTRACT_CODE, col 19 GLOBAL_CONTRACT_NONCE):
 * the column byte ‖ borsh GlobalContractCodeIdentifier {0 CodeHash([u8; 32]), 1 AccountId(String)}.
 * Code values are the wasm bytes; nonce values are u64 LE. Every shard keeps its own copy.
 */
export type GlobalContractKeyId =
  | { readonly kind: "CodeHash"; readonly codeHash: Uint8Array }
  | { readonly kind: "AccountId"; readonly accountId: string };

function globalContractKey(col: string, id: GlobalContractKeyId): string {
  if (id.kind === "CodeHash") return col + "\x00" + bytesToLatin1(id.codeHash);
  const len = Buffer.alloc(4);
  len.writeUInt32LE(Buffer.byteLength(id.accountId));
  return col + "\x01" + bytesToLatin1(len) + id.accountId;
}

export const globalContractCodeKey = (id: GlobalContractKeyId): string => globalContractKey("\x12", id);
export const globalContractNonceKey = (id: GlobalContractKeyId): string => globalContractKey("\x13", id);

/*
 * Yield/resume (NEP-519; trie_key.rs col 10 PROMISE_YIELD_INDICES, 11 PROMISE_YIELD_TIMEOUT,
 * 12 PROMISE_YIELD_RECEIPT, 20 PROMISE_YIELD_STATUS):
 *   10                               → timeout queue indices {first u64, next u64} (per shard)
 *   11 ‖ u64_le(index)               → borsh PromiseYieldTimeout {account_id, data_id, expires_at u64}
 *   12 ‖ receiver ‖ ',' ‖ data_id    → the yielded receipt (borsh, receiptCodec.ts), until resumed
 *   20 ‖ receiver ‖ ',' ‖ data_id    → borsh PromiseYieldStatus {0 Yielded, 1 ResumeInitiated}
 */
export const PROMISE_YIELD_INDICES_KEY = "\x0a";

export function promiseYieldTimeoutKey(index: bigint): string {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(index);
  return "\x0b" + bytesToLatin1(b);
}

export const promiseYieldReceiptKey = (receiverId: string, dataId: Uint8Array): string => perReceiver("\x0c", receiverId, dataId);
export const promiseYieldStatusKey = (receiverId: string, dataId: Uint8Array): string => perReceiver("\x14", receiverId, dataId);

/*
 * Yield ids (protocol 85 YieldWithId; trie_key.rs col 22 YIELD_ID_TO_DATA_ID, 23 DATA_ID_TO_YIELD_ID),
 * written by promise_yield_create_with_id and removed when the yielded receipt runs:
 *   22 ‖ receiver ‖ ',' ‖ yield_id   → data_id (32 bytes)
 *   23 ‖ receiver ‖ ',' ‖ data_id    → yield_id (32 bytes)
 */
export const yieldIdToDataIdKey = (receiverId: string, yieldId: Uint8Array): string => perReceiver("\x16", receiverId, yieldId);
export const dataIdToYieldIdKey = (receiverId: string, dataId: Uint8Array): string => perReceiver("\x17", receiverId, dataId);

/** nearcore `PromiseYieldStatus`, stored as its one-byte borsh tag. */
export const PROMISE_YIELD_STATUS = { Yielded: "\x00", ResumeInitiated: "\x01" } as const;

/*
 * Gas-key nonces (NEP-611; trie_key.rs `TrieKey::GasKeyNonce`): one row per nonce index under
 * the access-key column, the key's own trie key ‖ u16_le(index) → u64 LE nonce. Listing the
 * keys of an account must skip these rows, which are 2 bytes longer than a key handle.
 */
export function gasKeyNonceKey(accessKeyKey: string, index: number): string {
  return accessKeyKey + String.fromCharCode(index & 0xff, index >> 8);
}

/** Borsh length of a key handle by its tag: 33 for ed25519 (0) and an ML-DSA-65 digest (3), 65 for secp256k1 (1). */
const handleLength = (tag: number): number => (tag === 1 ? 65 : 33);

/** Whether the part of an access-key-column key after `account,` names a gas-key nonce row. */
export function isGasKeyNonceTail(tail: string): boolean {
  return tail.length === handleLength(tail.charCodeAt(0)) + 2;
}

export function encodeGasKeyNonce(nonce: bigint): string {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(nonce);
  return bytesToLatin1(b);
}

export function decodeGasKeyNonce(value: string): bigint {
  return Buffer.from(value, "latin1").readBigUInt64LE(0);
}
