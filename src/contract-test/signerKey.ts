import { base58Decode, base58Encode } from "@shardkit/primitives/base58";
import { ed25519FromSeed, type Ed25519KeyPair } from "../chain/primitives/ed25519.js";
import type { SignerCredentials } from "./ContractTestOptions.js";

/** Parses `ACCOUNT:ed25519:<base58 seed ‖ public key>` (the CLI's --signer). */
export function parseSignerFlag(text: string): SignerCredentials {
  const colon = text.indexOf(":");
  if (colon <= 0) throw new Error("--signer must be ACCOUNT:SECRET_KEY, e.g. alice.near:ed25519:3D4Y...");
  return { accountId: text.slice(0, colon), secretKey: text.slice(colon + 1) };
}

/** The key pair of a NEAR ed25519 secret key string; checks its public half. */
export function signerKeyPair(secretKey: string): Ed25519KeyPair {
  if (!secretKey.startsWith("ed25519:")) throw new Error("the signer's secret key must be an ed25519 key (ed25519:<base58>)");
  let bytes: Uint8Array;
  try {
    bytes = base58Decode(secretKey.slice("ed25519:".length));
  } catch {
    throw new Error("the signer's secret key is not valid base58");
  }
  if (bytes.length !== 64 && bytes.length !== 32) throw new Error(`the signer's secret key has ${bytes.length} bytes, not 64`);
  const pair = ed25519FromSeed(bytes.subarray(0, 32));
  if (bytes.length === 64 && base58Encode(bytes.subarray(32)) !== base58Encode(pair.publicKey.data)) {
    throw new Error("the signer's secret key does not hold its own public key (corrupt key)");
  }
  return pair;
}
