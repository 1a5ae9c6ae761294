import { ml_dsa65 } from "@noble/post-quantum/ml-dsa.js";
import { KeyType, type PublicKey } from "./publicKey.js";

/*
 * ML-DSA-65 (FIPS 204) as nearcore uses it since protocol 85 (PostQuantumSignatures): pure
 * ML-DSA with the empty context string over the message itself (for a transaction, its 32-byte
 * hash), as aws-lc-rs' `ML_DSA_65` verifier does. The lattice arithmetic is @noble/post-quantum's.
 */

/** FIPS 204 seed length: a key pair is derived from 32 bytes. */
export const ML_DSA_65_SEED_LENGTH = 32;

/** True when `signature` (3,309 bytes) by the 1,952-byte `publicKey` is valid for `message`. */
export function mlDsa65Verify(message: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 3309 || publicKey.length !== 1952) return false;
  try {
    return ml_dsa65.verify(signature, message, publicKey);
  } catch {
    return false; // a malformed encoding is an invalid signature, never a crash
  }
}

/** An ML-DSA-65 key pair with the same signing shape as `Ed25519KeyPair`. */
export interface MlDsa65KeyPair {
  readonly publicKey: PublicKey;
  /** The 4,032-byte expanded secret key (nearcore's `ml-dsa-65:` secret key form). */
  readonly secretKey: Uint8Array;
  /** Signs a message (a transaction hash); returns the 3,309-byte signature. Deterministic. */
  sign(message: Uint8Array): Uint8Array;
}

/**
 * The key pair of a 32-byte seed (FIPS 204 ML-DSA.KeyGen_internal, as aws-lc's
 * `PqdsaKeyPair::from_seed`, which nearcore's `ml_dsa_65_from_seed` wraps).
 */
export function mlDsa65FromSeed(seed: Uint8Array): MlDsa65KeyPair {
  if (seed.length !== ML_DSA_65_SEED_LENGTH) throw new RangeError("ML-DSA-65 seed must be 32 bytes");
  const { publicKey, secretKey } = ml_dsa65.keygen(seed);
  return keyPair(publicKey, secretKey);
}

/** The key pair of a 4,032-byte expanded secret key (nearcore's `ml-dsa-65:` SecretKey). */
export function mlDsa65FromSecretKey(secretKey: Uint8Array): MlDsa65KeyPair {
  if (secretKey.length !== ML_DSA_65_SECRET_KEY_LENGTH) throw new RangeError("ML-DSA-65 secret key must be 4032 bytes");
  const copy = secretKey.slice();
  return keyPair(ml_dsa65.getPublicKey(copy), copy);
}

/** FIPS 204 expanded secret key length. */
export const ML_DSA_65_SECRET_KEY_LENGTH = 4032;

function keyPair(publicKey: Uint8Array, secretKey: Uint8Array): MlDsa65KeyPair {
  return {
    publicKey: { keyType: KeyType.MLDSA65, data: publicKey },
    secretKey,
    // Deterministic signing (no extra entropy) keeps test transactions reproducible.
    sign: (message) => ml_dsa65.sign(message, secretKey, { extraEntropy: false }),
  };
}

/** A fresh random key pair. */
export function mlDsa65Random(): MlDsa65KeyPair {
  return mlDsa65FromSeed(crypto.getRandomValues(new Uint8Array(ML_DSA_65_SEED_LENGTH)));
}
