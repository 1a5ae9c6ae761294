import { ZERO_HASH, type CryptoHash } from "../primitives/cryptoHash.js";
import { sha256 } from "../primitives/sha256.js";
import { at } from "../must.js";

/** sha256(a ‖ b): the inner node of every merkle tree in block headers (nearcore `combine_hash`). */
export function combineHash(a: CryptoHash, b: CryptoHash): CryptoHash {
  const buf = new Uint8Array(64);
  buf.set(a, 0);
  buf.set(b, 32);
  return sha256(buf);
}

/** One step of a merkle path: the sibling's hash and the side it sits on (nearcore `MerklePathItem`). */
export interface MerklePathStep {
  readonly hash: CryptoHash;
  readonly direction: "Left" | "Right";
}

/**
 * The levels of the tree nearcore builds over already-hashed leaves: pairs are combined
 * level by level and an odd last node moves up unchanged. levels[0] is the leaves, the last
 * level holds the root alone.
 */
export function treeLevels(leaves: readonly CryptoHash[]): CryptoHash[][] {
  const levels: CryptoHash[][] = [[...leaves]];
  let level = at(levels, 0);
  while (level.length > 1) {
    const next: CryptoHash[] = [];
    for (let i = 0; i < level.length; i += 2) {
      next.push(i + 1 < level.length ? combineHash(at(level, i), at(level, i + 1)) : at(level, i));
    }
    levels.push(next);
    level = next;
  }
  return levels;
}

/** Root over already-hashed leaves (the zero hash when empty). */
export function merkleRootOfHashes(leaves: readonly CryptoHash[]): CryptoHash {
  if (leaves.length === 0) return ZERO_HASH;
  const levels = treeLevels(leaves);
  return at(at(levels, levels.length - 1), 0);
}

/** Path of leaf `leaf` in a tree built by treeLevels: a sibling per level that has one. */
export function pathFromLevels(levels: readonly (readonly CryptoHash[])[], leaf: number): MerklePathStep[] {
  const path: MerklePathStep[] = [];
  let index = leaf;
  for (let l = 0; l < levels.length - 1; l++) {
    const level = at(levels, l);
    const sibling = index ^ 1;
    if (sibling < level.length) path.push({ hash: at(level, sibling), direction: sibling < index ? "Left" : "Right" });
    index >>= 1;
  }
  return path;
}

/** Paths of every leaf to the root, as nearcore's `merklize` returns them. */
export function merklePathsOfHashes(leaves: readonly CryptoHash[]): MerklePathStep[][] {
  const levels = treeLevels(leaves);
  return leaves.map((_, leaf) => pathFromLevels(levels, leaf));
}

/**
 * nearcore `merklize` over items given as their borsh bytes: each leaf is sha256(borsh(item)).
 * For 32-byte hashes (chunk roots, tx hashes) the borsh bytes are the hash itself.
 */
export function merklize(items: readonly Uint8Array[]): { root: CryptoHash; paths: MerklePathStep[][] } {
  if (items.length === 0) return { root: ZERO_HASH, paths: [] };
  const leaves = items.map((item) => sha256(item));
  return { root: merkleRootOfHashes(leaves), paths: merklePathsOfHashes(leaves) };
}

/** Root of nearcore `merklize(items)` (cheaper than building the paths). */
export function merkleRoot(items: readonly Uint8Array[]): CryptoHash {
  return items.length === 0 ? ZERO_HASH : merkleRootOfHashes(items.map((item) => sha256(item)));
}

/** nearcore `compute_root_from_path`: folds a path onto a leaf hash. */
export function computeRootFromPath(path: readonly MerklePathStep[], leaf: CryptoHash): CryptoHash {
  let acc = leaf;
  for (const step of path) acc = step.direction === "Left" ? combineHash(step.hash, acc) : combineHash(acc, step.hash);
  return acc;
}
