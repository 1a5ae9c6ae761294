import { ZERO_HASH, type CryptoHash } from "../primitives/cryptoHash.js";
import { combineHash } from "./merkle.js";

/**
 * Append-only merkle tree over all block hashes so far, kept as the roots of its perfect
 * subtrees (one per set bit of `size`), as nearcore's PartialMerkleTree does; it gives
 * `block_merkle_root` (the root over all blocks before a block) in O(log n) per block.
 */
export class BlockMerkleAccumulator {
  private readonly peaks: CryptoHash[] = [];
  private size = 0;

  append(hash: CryptoHash): void {
    let node = hash;
    let s = this.size;
    while (s % 2 === 1) {
      node = combineHash(this.peaks.pop()!, node);
      s = Math.floor(s / 2);
    }
    this.peaks.push(node);
    this.size++;
  }

  /** Root over everything appended; the zero hash when empty. */
  root(): CryptoHash {
    if (this.peaks.length === 0) return ZERO_HASH;
    let acc = this.peaks[this.peaks.length - 1]!;
    for (let i = this.peaks.length - 2; i >= 0; i--) acc = combineHash(this.peaks[i]!, acc);
    return acc;
  }
}
