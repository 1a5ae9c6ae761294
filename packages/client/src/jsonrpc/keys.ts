import { ed25519 } from "@noble/curves/ed25519";
import { base58Decode, base58Encode } from "@shardkit/primitives/base58";
import { KeyType, formatPublicKey, type PublicKey } from "@shardkit/primitives/publicKey";
import { mlDsa65FromSecretKey, mlDsa65FromSeed, type MlDsa65KeyPair } from "@shardkit/primitives/mlDsa65";
import { secp256k1FromSecret } from "@shardkit/primitives/secp256k1";

/**
 * Signs 32-byte hashes with one key: what a transaction needs. The key pairs below are
 * Signers; a wallet or hardware key can be one too.
 */
export interface Signer {
  readonly publicKey: PublicKey;
  /**
   * Signs a 32-byte hash (ed25519: 64-byte signature; secp256k1: 65-byte r ‖ s ‖ v;
   * ML-DSA-65: 3,309 bytes).
   */
  sign(hash: Uint8Array): Uint8Array | Promise<Uint8Array>;
}

/** A Signer that knows its secret key, with NEAR's string forms of both keys. */
export interface KeyPair extends Signer {
  sign(hash: Uint8Array): Uint8Array;
  /** "ed25519:<base58>" / "secp256k1:<base58>" / "ml-dsa-65:<base58>" */
  readonly publicKeyString: string;
  /**
   * "ed25519:<base58 seed ‖ public key>" / "secp256k1:<base58 32-byte secret>" /
   * "ml-dsa-65:<base58 4,032-byte expanded secret key>" (nearcore's forms)
   */
  readonly secretKeyString: string;
}

/** An ed25519 key pair from its 32-byte seed (@noble/curves: pure JS, runs in browsers). */
export function ed25519KeyPair(seed: Uint8Array): KeyPair {
  if (seed.length !== 32) throw new RangeError(`an ed25519 seed is 32 bytes, got ${seed.length}`);
  const secret = seed.slice();
  const data = ed25519.getPublicKey(secret);
  const full = new Uint8Array(64);
  full.set(secret, 0);
  full.set(data, 32);
  const publicKey: PublicKey = { keyType: KeyType.ED25519, data };
  return {
    publicKey,
    publicKeyString: formatPublicKey(publicKey),
    secretKeyString: `ed25519:${base58Encode(full)}`,
    sign: (hash) => ed25519.sign(hash, secret),
  };
}

/** A secp256k1 key pair from its 32-byte secret (the same signing code as the shardkit node). */
export function secp256k1KeyPair(secret: Uint8Array): KeyPair {
  const pair = secp256k1FromSecret(secret);
  return {
    publicKey: pair.publicKey,
    publicKeyString: formatPublicKey(pair.publicKey),
    secretKeyString: `secp256k1:${base58Encode(secret)}`,
    sign: (hash) => pair.sign(hash),
  };
}

/**
 * An ML-DSA-65 key pair (protocol 85) from its 32-byte FIPS 204 seed, as nearcore's
 * `ml_dsa_65_from_seed`. Its access key is listed by the chain as "ml-dsa-65-hash:…"
 * (`formatPublicKeyAsHandle` in @shardkit/primitives/publicKeyHandle).
 */
export function mlDsa65KeyPair(seed: Uint8Array): KeyPair {
  return fromMlDsa65(mlDsa65FromSeed(seed));
}

function fromMlDsa65(pair: MlDsa65KeyPair): KeyPair {
  return {
    publicKey: pair.publicKey,
    publicKeyString: formatPublicKey(pair.publicKey),
    secretKeyString: `ml-dsa-65:${base58Encode(pair.secretKey)}`,
    sign: (hash) => pair.sign(hash),
  };
}

/**
 * Parses a NEAR secret key string, as near-api-js, nearcore and `shardkit serve` print them:
 * "ed25519:<base58 of seed ‖ public key (64 bytes) or of the seed alone (32)>",
 * "secp256k1:<base58 of the 32-byte secret>" or "ml-dsa-65:<base58 of the 4,032-byte secret>".
 * Throws on anything else, and when an ed25519 key's public half does not match its seed.
 */
export function keyPairFromString(secretKey: string): KeyPair {
  const colon = secretKey.indexOf(":");
  const type = colon < 0 ? "" : secretKey.slice(0, colon).toLowerCase();
  const bytes = base58Decode(secretKey.slice(colon + 1));
  if (type === "ed25519" && (bytes.length === 64 || bytes.length === 32)) {
    const pair = ed25519KeyPair(bytes.subarray(0, 32));
    if (bytes.length === 64 && base58Encode(bytes.subarray(32)) !== base58Encode(pair.publicKey.data)) {
      throw new RangeError("ed25519 secret key: its public half does not match its seed");
    }
    return pair;
  }
  if (type === "secp256k1" && bytes.length === 32) return secp256k1KeyPair(bytes);
  if (type === "ml-dsa-65" && bytes.length === 4032) return fromMlDsa65(mlDsa65FromSecretKey(bytes));
  throw new RangeError(
    `unsupported secret key: expected ed25519:<64 bytes>, secp256k1:<32 bytes> or ml-dsa-65:<4032 bytes> in base58`,
  );
}

/** A new random ed25519 key pair (the platform's CSPRNG through @noble). */
export function randomEd25519KeyPair(): KeyPair {
  return ed25519KeyPair(ed25519.utils.randomPrivateKey());
}
