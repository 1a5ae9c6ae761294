import { createPublicKey, verify, type KeyObject } from "node:crypto";
import { bytesToLatin1 } from "../primitives/latin1.js";
import { KeyType, type PublicKey } from "@shardkit/primitives/publicKey";
import { mlDsa65Verify } from "@shardkit/primitives/mlDsa65";
import { secp256k1Verify } from "@shardkit/primitives/secp256k1";
import type { Signature } from "@shardkit/primitives/signature";
import type { DecodedSignedTransaction } from "@shardkit/primitives/transaction";

// SPKI DER header for a raw 32-byte ed25519 public key (RFC 8410).
const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

// Importing a key costs more than the verification itself, and the same few keys sign most
// transactions, so KeyObjects are cached by raw key. Bounded: on overflow the oldest half
// goes (Map iterates in insertion order), so forged unique keys cannot grow memory.
const CACHE_LIMIT = 4096;
const keyCache = new Map<string, KeyObject | null>();

function ed25519KeyObject(raw: Uint8Array): KeyObject | null {
  const id = bytesToLatin1(raw);
  const hit = keyCache.get(id);
  if (hit !== undefined) return hit;
  let key: KeyObject | null;
  try {
    key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: "der", type: "spki" });
  } catch {
    key = null; // not a usable key: every signature by it is invalid
  }
  if (keyCache.size >= CACHE_LIMIT) {
    let drop = CACHE_LIMIT >> 1;
    for (const k of keyCache.keys()) {
      keyCache.delete(k);
      if (--drop === 0) break;
    }
  }
  keyCache.set(id, key);
  return key;
}

/**
 * True when `signature` by `publicKey` is valid for `message` (for transactions: the 32-byte
 * hash). A key/signature type mismatch is simply invalid, as in nearcore. ed25519 goes
 * through node:crypto (OpenSSL); secp256k1 through @noble/curves (secp256k1.ts); ML-DSA-65
 * through @noble/post-quantum (mlDsa65.ts).
 */
export function verifySignature(message: Uint8Array, signature: Signature, publicKey: PublicKey): boolean {
  if (signature.keyType !== publicKey.keyType) return false;
  if (signature.keyType === KeyType.ED25519) {
    if (publicKey.data.length !== 32 || signature.data.length !== 64) return false;
    const key = ed25519KeyObject(publicKey.data);
    if (key === null) return false;
    try {
      return verify(null, message, key, signature.data);
    } catch {
      return false;
    }
  }
  if (signature.keyType === KeyType.MLDSA65) return mlDsa65Verify(message, signature.data, publicKey.data);
  return secp256k1Verify(message, signature.data, publicKey.data);
}

/** Checks a decoded transaction's signature over its hash with the transaction's public key. */
export function verifyTransactionSignature(tx: DecodedSignedTransaction): boolean {
  return verifySignature(tx.hash, tx.signature, tx.transaction.publicKey);
}
