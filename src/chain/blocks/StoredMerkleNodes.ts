import type { CryptoHash } from "../primitives/cryptoHash.js";
import { ChainStoreError, type ChainStore } from "../store/ChainStore.js";
import type { MerkleNodeSource } from "./BlockMerkleTree.js";

/** The block merkle tree's nodes as the chain store keeps them: leaves are block hashes by height. */
export class StoredMerkleNodes implements MerkleNodeSource {
  constructor(
    private readonly store: ChainStore,
    private readonly genesisHeight: number,
    /** Number of blocks in the chain (the genesis included; 0 before it exists). */
    readonly size: () => number,
  ) {}

  leaf(index: number): CryptoHash {
    const hash = this.store.blockHashAt(this.genesisHeight + index);
    if (hash === undefined) throw new ChainStoreError(`the data dir has no block at height ${this.genesisHeight + index}`);
    return hash;
  }

  node(level: number, index: number): CryptoHash {
    const hash = this.store.merkleNode(level, index);
    if (hash === undefined) throw new ChainStoreError(`the data dir lacks block merkle node ${level}/${index}`);
    return hash;
  }
}
