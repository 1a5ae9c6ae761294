import { ZERO_HASH, type CryptoHash } from "../primitives/cryptoHash.js";
import { sha256 } from "../primitives/sha256.js";

/** sha256(a ‖ b): the inner node of every merkle tree in block headers. */
export function combineHash(a: CryptoHash, b: CryptoHash): CryptoHash {
  const buf = new Uint8Array(64);
  buf.set(a, 0);
  buf.set(b, 32);
  return sha256(buf);
}

/**
 * Merkle root of a list of 32-byte hashes (chunk roots in a header): pairs are combined
 * level by level, an odd last element moves up unchanged; an empty list gives the zero hash.
 */
export function merkleRoot(leaves: readonly CryptoHash[]): CryptoHash {
  if (leaves.length === 0) return ZERO_HASH;
  let level = [...leaves];
  while (level.length > 1) {
    const next: CryptoHash[] = [];
    for (let i = 0; i < level.length; i += 2) {
      next.push(i + 1 < level.length ? combineHash(level[i]!, level[i + 1]!) : level[i]!);
    }
    level = next;
  }
  return level[0]!;
}
