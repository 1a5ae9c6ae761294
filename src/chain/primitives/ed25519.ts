import { createPrivateKey, createPublicKey, sign, type KeyObject } from "node:crypto";
import { base58Encode } from "@shardkit/primitives/base58";
import { KeyType, formatPublicKey, type PublicKey } from "@shardkit/primitives/publicKey";

// DER prefixes that wrap a raw 32-byte ed25519 seed (PKCS#8) or public key (SPKI).
const PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
const SPKI_PREFIX_LEN = 12;

/** An ed25519 key pair built from a 32-byte seed with node:crypto. */
export interface Ed25519KeyPair {
  readonly publicKey: PublicKey;
  /** "ed25519:<base58 32 bytes>" */
  readonly publicKeyString: string;
  /** NEAR secret key string: "ed25519:" + base58(seed ‖ public key), 64 bytes. */
  readonly secretKeyString: string;
  /** Signs `message` (for NEAR: a 32-byte sha256) and returns the 64-byte signature. */
  sign(message: Uint8Array): Uint8Array;
}

/** Derives an ed25519 key pair from a 32-byte seed (RFC 8032 private key). */
export function ed25519FromSeed(seed: Uint8Array): Ed25519KeyPair {
  if (seed.length !== 32) throw new RangeError(`ed25519 seed must be 32 bytes, got ${seed.length}`);
  const privateKey: KeyObject = createPrivateKey({
    key: Buffer.concat([PKCS8_PREFIX, seed]),
    format: "der",
    type: "pkcs8",
  });
  const spki = createPublicKey(privateKey).export({ format: "der", type: "spki" });
  const pub = new Uint8Array(spki.subarray(SPKI_PREFIX_LEN));
  const publicKey: PublicKey = { keyType: KeyType.ED25519, data: pub };
  const full = new Uint8Array(64);
  full.set(seed, 0);
  full.set(pub, 32);
  return {
    publicKey,
    publicKeyString: formatPublicKey(publicKey),
    secretKeyString: `ed25519:${base58Encode(full)}`,
    sign(message: Uint8Array): Uint8Array {
      return new Uint8Array(sign(null, message, privateKey));
    },
  };
}
