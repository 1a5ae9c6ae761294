import { ed25519FromSeed, type Ed25519KeyPair } from "../primitives/ed25519.js";
import { sha256 } from "../primitives/sha256.js";

/** Deterministic dev key of an account: seed = sha256(UTF-8 "shardkit-dev:" + account id). */
export function devKeyPair(accountId: string): Ed25519KeyPair {
  return ed25519FromSeed(sha256(new TextEncoder().encode(`shardkit-dev:${accountId}`)));
}
