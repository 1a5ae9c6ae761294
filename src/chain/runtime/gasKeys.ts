import type { AccessKey } from "@shardkit/primitives/accessKey";
import type { PublicKey } from "@shardkit/primitives/publicKey";
import { publicKeyHandleLength } from "@shardkit/primitives/publicKeyHandle";
import { accessKeyStorageUsage, STORAGE_NUM_EXTRA_BYTES_RECORD } from "../genesis/storageUsage.js";

/*
 * Gas-key constants and sizes (NEP-611, nearcore primitives-core account.rs and trie_key.rs,
 * runtime access_keys.rs and config.rs).
 */

/** `AccessKeyPermission::MAX_NONCES_FOR_GAS_KEY`: an AddKey asks for 1..=1024 nonces. */
export const MAX_NONCES_FOR_GAS_KEY = 1024;

/** `GasKeyInfo::MAX_BALANCE_TO_BURN` (1 NEAR): deleting a key (or account) burning more is refused. */
export const GAS_KEY_MAX_BALANCE_TO_BURN = 10n ** 24n;

/** `GasKeyInfo::borsh_len`: balance u128 ‖ num_nonces u16. */
export const GAS_KEY_INFO_BORSH_LENGTH = 18;

/** `AccessKey::min_gas_key_borsh_len`: nonce u64 ‖ tag ‖ GasKeyInfo (a GasKeyFullAccess key). */
export const MIN_GAS_KEY_BORSH_LENGTH = 8 + 1 + GAS_KEY_INFO_BORSH_LENGTH;

/** `AccessKey::NONCE_VALUE_LEN`: a stored nonce is a u64. */
export const NONCE_VALUE_LENGTH = 8;

/** `access_key_key_len`: column ‖ account id ‖ ',' ‖ the key as stored (`trie_id_len`). */
export function accessKeyTrieKeyLength(accountId: string, publicKey: PublicKey): number {
  return 1 + Buffer.byteLength(accountId, "utf8") + 1 + publicKeyHandleLength(publicKey);
}

/** `gas_key_nonce_key_len`: the access key's trie key ‖ u16 nonce index. */
export function gasKeyNonceTrieKeyLength(accountId: string, publicKey: PublicKey): number {
  return accessKeyTrieKeyLength(accountId, publicKey) + 2;
}

/**
 * `gas_key_storage_cost`: the key as any access key, plus per nonce the key handle, the index,
 * the u64 value and the per-record overhead (nearcore leaves the column and account id out).
 */
export function gasKeyStorageUsage(publicKey: PublicKey, key: AccessKey, numNonces: number): number {
  const perNonce = publicKeyHandleLength(publicKey) + 2 + NONCE_VALUE_LENGTH + STORAGE_NUM_EXTRA_BYTES_RECORD;
  return numNonces * perNonce + accessKeyStorageUsage(publicKey, key);
}
