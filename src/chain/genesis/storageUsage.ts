import { encodeAccessKey, type AccessKey } from "@shardkit/primitives/accessKey";
import type { PublicKey } from "@shardkit/primitives/publicKey";
import { publicKeyHandleLength } from "@shardkit/primitives/publicKeyHandle";

/**
 * Storage usage accounting from nearcore's runtime config (`num_bytes_account`,
 * `num_extra_bytes_record`), as genesis computes it per record.
 */
export const STORAGE_NUM_BYTES_ACCOUNT = 100;
export const STORAGE_NUM_EXTRA_BYTES_RECORD = 40;

/**
 * Bytes an access key costs: its key handle as stored (nearcore `trie_id_len`: the borsh key,
 * 33 bytes for an ML-DSA-65 key's digest) + borsh(access key) + 40.
 */
export function accessKeyStorageUsage(publicKey: PublicKey, accessKey: AccessKey): number {
  return publicKeyHandleLength(publicKey) + encodeAccessKey(accessKey).length + STORAGE_NUM_EXTRA_BYTES_RECORD;
}

/** Bytes a contract data entry costs: key + value + 40. */
export function dataStorageUsage(keyLength: number, valueLength: number): number {
  return keyLength + valueLength + STORAGE_NUM_EXTRA_BYTES_RECORD;
}

/** Bytes deployed code costs: its length (no per-record overhead). */
export function codeStorageUsage(codeLength: number): number {
  return codeLength;
}
