import { base58Decode } from "@shardkit/primitives/base58";
import { blockIndexKeys, type BlockIndexKeys } from "./blockIndexKeys.js";
import { ChainStoreError, type ChainStore, type MerkleNode, type StoredBlock, type StoredGenesis } from "./ChainStore.js";
import { MemoryForkCache, type ForkCache } from "./ForkCache.js";
import { merklePositionsCompletedBy } from "./merklePositions.js";
import { MemoryStateStore } from "./MemoryStateStore.js";
import { at } from "../must.js";

type IndexName = keyof BlockIndexKeys;
const INDEXES: readonly IndexName[] = ["transactions", "receipts", "receiptOutcomes", "dropped", "chunks"];

/**
 * {@link ChainStore} in process memory (`--ephemeral` and unit tests): nothing survives the
 * process. It holds its own state store, so a chain reopened on the same object reads the
 * same roots.
 */
export class MemoryChainStore implements ChainStore {
  readonly durable = false;
  private stored: StoredGenesis | undefined;
  private readonly blocks: StoredBlock[] = [];
  private firstHeight = 0;
  private readonly byHash = new Map<string, number>();
  private readonly indexes: Readonly<Record<IndexName, Map<string, number>>> = {
    transactions: new Map(),
    receipts: new Map(),
    receiptOutcomes: new Map(),
    dropped: new Map(),
    chunks: new Map(),
  };
  private readonly merkle = new Map<string, Uint8Array>();
  private readonly state = new MemoryStateStore();
  private readonly forkCaches = new Map<string, ForkCache>();
  private closed = false;

  genesis(): StoredGenesis | undefined {
    return this.stored;
  }

  stateStore(): MemoryStateStore {
    return this.state;
  }

  forkCache(forkBlockHash: Uint8Array): ForkCache {
    const key = Buffer.from(forkBlockHash).toString("hex");
    let cache = this.forkCaches.get(key);
    if (cache === undefined) this.forkCaches.set(key, (cache = new MemoryForkCache()));
    return cache;
  }

  initGenesis(genesis: StoredGenesis): void {
    this.checkOpen();
    if (this.stored !== undefined) throw new ChainStoreError("the store already holds a chain");
    this.stored = genesis;
    this.firstHeight = genesis.config.genesisHeight + 1;
    this.byHash.set(genesis.genesisHash, genesis.config.genesisHeight);
  }

  commitBlock(block: StoredBlock, merkleNodes: readonly MerkleNode[]): void {
    this.checkOpen();
    if (this.stored === undefined) throw new ChainStoreError("commitBlock before initGenesis");
    const expected = this.firstHeight + this.blocks.length;
    if (block.height !== expected) throw new ChainStoreError(`block ${block.height} committed, expected ${expected}`);
    const keys = blockIndexKeys(block);
    this.blocks.push(block);
    this.byHash.set(block.hash, block.height);
    for (const name of INDEXES) for (const id of keys[name]) this.indexes[name].set(id, block.height);
    for (const n of merkleNodes) this.merkle.set(`${n.level}/${n.index}`, n.hash);
  }

  truncateAbove(height: number): void {
    this.checkOpen();
    const keep = Math.max(0, height - this.firstHeight + 1);
    for (const block of this.blocks.splice(keep)) {
      const keys = blockIndexKeys(block);
      this.byHash.delete(block.hash);
      for (const name of INDEXES) for (const id of keys[name]) this.indexes[name].delete(id);
      for (const p of merklePositionsCompletedBy(block.height - this.firstHeight + 1)) this.merkle.delete(`${p.level}/${p.index}`);
    }
  }

  async withOneFlush<T>(body: () => T): Promise<T> {
    return body();
  }

  headHeight(): number | undefined {
    return this.blocks.length === 0 ? undefined : this.firstHeight + this.blocks.length - 1;
  }

  block(height: number): StoredBlock | undefined {
    return Number.isInteger(height) ? this.blocks[height - this.firstHeight] : undefined;
  }

  *blocksFrom(height: number): Iterable<StoredBlock> {
    for (let i = Math.max(0, height - this.firstHeight); i < this.blocks.length; i++) yield at(this.blocks, i);
  }

  blockHashAt(height: number): Uint8Array | undefined {
    if (this.stored !== undefined && height === this.firstHeight - 1) return base58Decode(this.stored.genesisHash);
    const block = this.block(height);
    return block === undefined ? undefined : base58Decode(block.hash);
  }

  merkleNode(level: number, index: number): Uint8Array | undefined {
    return this.merkle.get(`${level}/${index}`);
  }

  heightOfBlock(hash: string): number | undefined {
    return this.byHash.get(hash);
  }

  heightOfTransaction(hash: string): number | undefined {
    return this.indexes.transactions.get(hash);
  }

  heightOfReceipt(id: string): number | undefined {
    return this.indexes.receipts.get(id);
  }

  heightOfReceiptOutcome(id: string): number | undefined {
    return this.indexes.receiptOutcomes.get(id);
  }

  heightOfDroppedTransaction(hash: string): number | undefined {
    return this.indexes.dropped.get(hash);
  }

  heightOfChunk(hash: string): number | undefined {
    return this.indexes.chunks.get(hash);
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private checkOpen(): void {
    if (this.closed) throw new ChainStoreError("the store is closed");
  }
}
