import { bytesToNumberBE } from "@noble/curves/abstract/utils";
import { secp256k1 } from "@noble/curves/secp256k1";
import { KeyType, type PublicKey } from "./publicKey.js";

/*
 * secp256k1 ECDSA over a 32-byte message hash (NEAR signs the transaction hash itself, no
 * further hashing). The curve arithmetic, constant-time signing and RFC 6979 nonces are
 * @noble/curves'; this file keeps nearcore's `Signature::verify` (near-crypto over
 * libsecp256k1) checks and NEAR's byte layouts: 64-byte x ‖ y keys, r ‖ s ‖ v signatures.
 */
const N = secp256k1.CURVE.n;
const HALF_N = N >> 1n;

// No Buffer: the browser client package signs with this same file.
const toBig = (b: Uint8Array): bigint => (b.length === 0 ? 0n : bytesToNumberBE(b));

/**
 * Verifies a NEAR secp256k1 signature (r ‖ s ‖ v, 65 bytes) over a 32-byte hash against a
 * 64-byte uncompressed public key (x ‖ y, no 0x04). Like nearcore/libsecp256k1 it requires
 * v ≤ 3, 0 < r, s < n, a low s (s ≤ n/2) and a key on the curve; v is otherwise unused.
 */
export function secp256k1Verify(hash: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean {
  if (hash.length !== 32 || signature.length !== 65 || publicKey.length !== 64) return false;
  if (signature[64]! > 3) return false;
  const r = toBig(signature.subarray(0, 32));
  const s = toBig(signature.subarray(32, 64));
  if (r === 0n || r >= N || s === 0n || s > HALF_N) return false;
  const key = new Uint8Array(65);
  key[0] = 4;
  key.set(publicKey, 1);
  try {
    // Parsing the key checks it lies on the curve; an invalid one throws.
    return secp256k1.verify(signature.subarray(0, 64), hash, key, { lowS: true, prehash: false });
  } catch {
    return false;
  }
}

function checkSecret(secret: Uint8Array): void {
  const d = secret.length === 32 ? toBig(secret) : 0n;
  if (d === 0n || d >= N) throw new RangeError("secp256k1 secret key must be 32 bytes in [1, n-1]");
}

/** The 64-byte public key (x ‖ y) of a 32-byte secret key. */
export function secp256k1PublicKeyOf(secret: Uint8Array): Uint8Array {
  checkSecret(secret);
  return secp256k1.getPublicKey(secret, false).slice(1);
}

/**
 * Signs a 32-byte hash deterministically (RFC 6979, no extra entropy) and returns r ‖ s ‖ v
 * with a low s, as libsecp256k1's recoverable signing does (so the bytes match nearcore's
 * `SecretKey::sign`).
 */
export function secp256k1Sign(hash: Uint8Array, secret: Uint8Array): Uint8Array {
  if (hash.length !== 32) throw new RangeError("secp256k1 signs a 32-byte hash");
  checkSecret(secret);
  const sig = secp256k1.sign(hash, secret, { lowS: true, prehash: false });
  const out = new Uint8Array(65);
  out.set(sig.toCompactRawBytes(), 0);
  out[64] = sig.recovery;
  return out;
}

/** A secp256k1 key pair with the same signing shape as `Ed25519KeyPair`. */
export interface Secp256k1KeyPair {
  readonly publicKey: PublicKey;
  /** Signs a 32-byte hash; returns the 65-byte r ‖ s ‖ v. */
  sign(hash: Uint8Array): Uint8Array;
}

export function secp256k1FromSecret(secret: Uint8Array): Secp256k1KeyPair {
  const copy = secret.slice();
  const publicKey: PublicKey = { keyType: KeyType.SECP256K1, data: secp256k1PublicKeyOf(copy) };
  return { publicKey, sign: (hash) => secp256k1Sign(hash, copy) };
}
