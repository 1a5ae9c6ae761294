import { ZERO_HASH, type CryptoHash } from "../primitives/cryptoHash.js";
import { combineHash, type MerklePathStep } from "./merkle.js";

/**
 * Append-only merkle tree over every block hash (in height order), the tree behind each
 * header's `block_merkle_root`: nearcore's PartialMerkleTree, whose root is the same
 * "odd node moves up" tree merklize builds, over the raw hashes. It keeps every complete
 * subtree root (about two hashes per block), so the root after any number of blocks and a
 * block's path in a later tree each cost O(log² n) hashes.
 */
export class BlockMerkleTree {
  /** complete[k][i]: root of the perfect subtree over leaves [i·2^k, (i+1)·2^k). */
  private readonly complete: CryptoHash[][] = [[]];

  /** Number of leaves appended. */
  get size(): number {
    return this.complete[0]!.length;
  }

  append(hash: CryptoHash): void {
    this.complete[0]!.push(hash);
    for (let k = 0; ; k++) {
      const level = this.complete[k]!;
      if (level.length % 2 !== 0) break;
      const next = (this.complete[k + 1] ??= []);
      next.push(combineHash(level[level.length - 2]!, level[level.length - 1]!));
    }
  }

  /** Node `index` of level `level` in the tree over the first `size` leaves (undefined past its right edge). */
  private node(level: number, index: number, size: number): CryptoHash | undefined {
    const width = 2 ** level;
    if (index * width >= size) return undefined;
    if ((index + 1) * width <= size) return this.complete[level]![index]!;
    const left = this.node(level - 1, index * 2, size)!;
    const right = this.node(level - 1, index * 2 + 1, size);
    return right === undefined ? left : combineHash(left, right);
  }

  private static height(size: number): number {
    let levels = 0;
    while (2 ** levels < size) levels++;
    return levels;
  }

  /** Root over the first `size` leaves; the zero hash for none. */
  rootAt(size: number): CryptoHash {
    this.checkSize(size);
    if (size === 0) return ZERO_HASH;
    return this.node(BlockMerkleTree.height(size), 0, size)!;
  }

  /** Path of leaf `leaf` to `rootAt(size)` (nearcore `compute_past_block_proof_in_merkle_tree_of_later_block`). */
  pathAt(leaf: number, size: number): MerklePathStep[] {
    this.checkSize(size);
    if (!Number.isSafeInteger(leaf) || leaf < 0 || leaf >= size) throw new RangeError(`leaf ${leaf} is outside a tree of ${size}`);
    const path: MerklePathStep[] = [];
    const levels = BlockMerkleTree.height(size);
    for (let k = 0; k < levels; k++) {
      const index = Math.floor(leaf / 2 ** k);
      const sibling = index % 2 === 0 ? index + 1 : index - 1;
      const hash = this.node(k, sibling, size);
      if (hash !== undefined) path.push({ hash, direction: sibling < index ? "Left" : "Right" });
    }
    return path;
  }

  private checkSize(size: number): void {
    if (!Number.isSafeInteger(size) || size < 0 || size > this.size) throw new RangeError(`no tree of ${size} leaves (have ${this.size})`);
  }
}
