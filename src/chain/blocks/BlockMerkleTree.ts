import { ZERO_HASH, type CryptoHash } from "../primitives/cryptoHash.js";
import type { MerkleNode } from "../store/ChainStore.js";
import { merklePositionsCompletedBy } from "../store/merklePositions.js";
import { combineHash, type MerklePathStep } from "./merkle.js";
import { at } from "../must.js";

/**
 * Where the tree's nodes are kept: the leaves are the block hashes in height order, and every
 * complete subtree root above them is stored once, when its last leaf is appended (the chain
 * store; `MemoryMerkleNodes` in tests). Nothing of the tree stays in the heap.
 */
export interface MerkleNodeSource {
  /** Number of leaves appended. */
  size(): number;
  /** Leaf `index` (< size). */
  leaf(index: number): CryptoHash;
  /** Root of the perfect subtree over leaves [index·2^level, (index+1)·2^level), level >= 1, complete. */
  node(level: number, index: number): CryptoHash;
}

/**
 * Append-only merkle tree over every block hash (in height order), the tree behind each
 * header's `block_merkle_root`: nearcore's PartialMerkleTree, whose root is the same
 * "odd node moves up" tree merklize builds, over the raw hashes. Its source keeps every
 * complete subtree root (about one hash per block), so the root after any number of blocks
 * and a block's path in a later tree each read O(log² n) nodes, whatever the chain's length.
 */
export class BlockMerkleTree {
  constructor(private readonly src: MerkleNodeSource) {}

  /** Number of leaves appended. */
  get size(): number {
    return this.src.size();
  }

  /** The subtree roots that appending `hash` as leaf number `leaf` (= the current size) completes. */
  completedBy(leaf: number, hash: CryptoHash): MerkleNode[] {
    const out: MerkleNode[] = [];
    let current = hash;
    for (const { level, index } of merklePositionsCompletedBy(leaf)) {
      current = combineHash(this.complete(level - 1, index * 2), current);
      out.push({ level, index, hash: current });
    }
    return out;
  }

  private complete(level: number, index: number): CryptoHash {
    return level === 0 ? this.src.leaf(index) : this.src.node(level, index);
  }

  /** Node `index` of level `level` in the tree over the first `size` leaves (undefined past its right edge). */
  private node(level: number, index: number, size: number): CryptoHash | undefined {
    const width = 2 ** level;
    if (index * width >= size) return undefined;
    if ((index + 1) * width <= size) return this.complete(level, index);
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
    const have = this.size;
    if (!Number.isSafeInteger(size) || size < 0 || size > have) throw new RangeError(`no tree of ${size} leaves (have ${have})`);
  }
}

/** A {@link MerkleNodeSource} in arrays (tests and tools): `append` adds a leaf and the nodes it completes. */
export class MemoryMerkleNodes implements MerkleNodeSource {
  private readonly levels: CryptoHash[][] = [[]];
  private readonly tree = new BlockMerkleTree(this);

  size(): number {
    return at(this.levels, 0).length;
  }

  leaf(index: number): CryptoHash {
    return at(at(this.levels, 0), index);
  }

  node(level: number, index: number): CryptoHash {
    return at(at(this.levels, level), index);
  }

  append(hash: CryptoHash): void {
    const added = this.tree.completedBy(this.size(), hash);
    at(this.levels, 0).push(hash);
    for (const n of added) (this.levels[n.level] ??= [])[n.index] = n.hash;
  }
}
