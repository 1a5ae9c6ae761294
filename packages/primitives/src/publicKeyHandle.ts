import { sha3_256 } from "@noble/hashes/sha3.js";
import { Base58Error, base58Decode, base58Encode } from "./base58.js";
import { KEY_TYPE_NAMES, KeyType, PUBLIC_KEY_LENGTH, PublicKeyError, parsePublicKey, type PublicKey } from "./publicKey.js";

/*
 * How an access key is named in state (nearcore `PublicKeyHandle`). ed25519 and secp256k1 keys
 * are stored under their full borsh key; an ML-DSA-65 key only under a 32-byte SHA3-256 digest
 * with borsh tag 3 (the full 1,952-byte key travels only in transactions and actions). Views
 * that read keys back from state (view_access_key_list, the access-key state changes) show that
 * digest as "ml-dsa-65-hash:<base58>".
 */

/** Borsh tag of an ML-DSA-65 handle; tag 2 stays the full key's, so neither decodes as the other. */
export const ML_DSA_65_HASH_TAG = 3;
const HASH_LENGTH = 32;
const HASH_PREFIX = "ml-dsa-65-hash:";
// nearcore hash_domain.rs `HashDomainTag::MlDsa65PubkeyV1`, hashed before the key bytes.
const DOMAIN = new TextEncoder().encode("near:ml-dsa-65-pubkey-hash:v1");

/** SHA3-256(domain ‖ raw key): the 32 bytes an ML-DSA-65 access key is stored under. */
export function mlDsa65KeyDigest(rawKey: Uint8Array): Uint8Array {
  return sha3_256.create().update(DOMAIN).update(rawKey).digest();
}

/** The borsh handle of a key: its borsh form, or 3 ‖ digest for ML-DSA-65. */
export function publicKeyHandleBorsh(key: PublicKey): Uint8Array {
  const hashed = key.keyType === KeyType.MLDSA65;
  const data = hashed ? mlDsa65KeyDigest(key.data) : key.data;
  const out = new Uint8Array(1 + data.length);
  out[0] = hashed ? ML_DSA_65_HASH_TAG : key.keyType;
  out.set(data, 1);
  return out;
}

/** Byte length of a key's handle (nearcore `trie_id_len`): 33, 65, or 33 for ML-DSA-65. */
export function publicKeyHandleLength(key: PublicKey): number {
  return 1 + (key.keyType === KeyType.MLDSA65 ? HASH_LENGTH : key.data.length);
}

/**
 * The string form of a borsh handle that fills `bytes` exactly (a trie key's tail):
 * "ed25519:…", "secp256k1:…" or "ml-dsa-65-hash:…". Throws PublicKeyError otherwise.
 */
export function formatPublicKeyHandle(bytes: Uint8Array): string {
  const tag = bytes[0];
  const dataLength =
    tag === ML_DSA_65_HASH_TAG ? HASH_LENGTH : tag === KeyType.ED25519 || tag === KeyType.SECP256K1 ? PUBLIC_KEY_LENGTH[tag] : undefined;
  if (dataLength === undefined) throw new PublicKeyError(`unknown borsh key handle type ${String(tag)}`);
  if (bytes.length !== 1 + dataLength) throw new PublicKeyError(`key handle of type ${tag} must be ${1 + dataLength} bytes`);
  const data = base58Encode(bytes.subarray(1));
  return tag === ML_DSA_65_HASH_TAG ? `${HASH_PREFIX}${data}` : `${KEY_TYPE_NAMES[tag as KeyType]}:${data}`;
}

/** The handle string of a full key: itself for ed25519/secp256k1, "ml-dsa-65-hash:…" for ML-DSA-65. */
export function formatPublicKeyAsHandle(key: PublicKey): string {
  return formatPublicKeyHandle(publicKeyHandleBorsh(key));
}

/**
 * Parses a handle string into its borsh bytes, as nearcore's `PublicKeyHandle::from_str`:
 * "ml-dsa-65-hash:<base58 of 32 bytes>" or an ed25519/secp256k1 key; a full ML-DSA-65 key is
 * refused (hash it with {@link publicKeyHandleBorsh} instead).
 */
export function parsePublicKeyHandle(text: string): Uint8Array {
  if (text.startsWith(HASH_PREFIX)) {
    let digest: Uint8Array;
    try {
      digest = base58Decode(text.slice(HASH_PREFIX.length));
    } catch (e) {
      if (e instanceof Base58Error) throw new PublicKeyError(`key handle data: ${e.message}`);
      throw e;
    }
    if (digest.length !== HASH_LENGTH) {
      throw new PublicKeyError(`ml-dsa-65-hash key handle must be ${HASH_LENGTH} bytes, got ${digest.length}`);
    }
    const out = new Uint8Array(1 + HASH_LENGTH);
    out[0] = ML_DSA_65_HASH_TAG;
    out.set(digest, 1);
    return out;
  }
  const key = parsePublicKey(text);
  if (key.keyType === KeyType.MLDSA65) {
    throw new PublicKeyError("full ML-DSA-65 keys cannot appear in a PublicKeyHandle; use the `ml-dsa-65-hash:` form instead");
  }
  return publicKeyHandleBorsh(key);
}
