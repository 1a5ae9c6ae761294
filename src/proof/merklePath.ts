import { sha256 } from "@noble/hashes/sha2.js";
import { base58Decode } from "@shardkit/primitives/base58";

/** One step of a nearcore merkle path: the sibling hash (base58) and the side it sits on. */
export interface MerklePathItem {
  readonly hash: string;
  readonly direction: "Left" | "Right";
}

/** sha256(a ‖ b), nearcore `combine_hash`. */
export function combineHash(a: Uint8Array, b: Uint8Array): Uint8Array {
  const buf = new Uint8Array(a.length + b.length);
  buf.set(a, 0);
  buf.set(b, a.length);
  return sha256(buf);
}

/** nearcore `compute_root_from_path`: folds the path onto a leaf hash, Left siblings first. */
export function computeRootFromPath(path: readonly MerklePathItem[], leaf: Uint8Array): Uint8Array {
  let acc = leaf;
  for (const step of path) {
    const sibling = base58Decode(step.hash);
    if (sibling.length !== 32) throw new RangeError(`a merkle path hash has 32 bytes, ${step.hash} has ${sibling.length}`);
    if (step.direction === "Left") acc = combineHash(sibling, acc);
    else if (step.direction === "Right") acc = combineHash(acc, sibling);
    else throw new RangeError(`a merkle path direction is Left or Right, got ${JSON.stringify(step.direction)}`);
  }
  return acc;
}

/** nearcore `verify_path` for an item given by its borsh bytes: the leaf is sha256(borsh(item)). */
export function verifyMerklePath(root: Uint8Array, path: readonly MerklePathItem[], itemBorsh: Uint8Array): boolean {
  return bytesEqual(computeRootFromPath(path, sha256(itemBorsh)), root);
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (const [i, x] of a.entries()) diff |= x ^ (b[i] ?? 0);
  return diff === 0;
}
