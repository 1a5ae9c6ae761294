import { blockIndexKeys } from "./blockIndexKeys.js";
import { ChainStoreError, type ChainStore, type StoredBlock, type StoredGenesis } from "./ChainStore.js";

/** {@link ChainStore} in process memory (`--ephemeral` and unit tests): nothing survives the process. */
export class MemoryChainStore implements ChainStore {
  readonly durable = false;
  private stored: StoredGenesis | undefined;
  private readonly blocks: StoredBlock[] = [];
  private firstHeight = 0;
  private readonly byHash = new Map<string, number>();
  private readonly byTransaction = new Map<string, number>();
  private readonly byReceipt = new Map<string, number>();
  private closed = false;

  genesis(): StoredGenesis | undefined {
    return this.stored;
  }

  initGenesis(genesis: StoredGenesis): void {
    this.checkOpen();
    if (this.stored !== undefined) throw new ChainStoreError("the store already holds a chain");
    this.stored = genesis;
    this.firstHeight = genesis.config.genesisHeight + 1;
    this.byHash.set(genesis.genesisHash, genesis.config.genesisHeight);
  }

  commitBlock(block: StoredBlock): void {
    this.checkOpen();
    if (this.stored === undefined) throw new ChainStoreError("commitBlock before initGenesis");
    const expected = this.firstHeight + this.blocks.length;
    if (block.height !== expected) throw new ChainStoreError(`block ${block.height} committed, expected ${expected}`);
    const { transactions, receipts } = blockIndexKeys(block);
    this.blocks.push(block);
    this.byHash.set(block.hash, block.height);
    for (const t of transactions) this.byTransaction.set(t, block.height);
    for (const r of receipts) this.byReceipt.set(r, block.height);
  }

  truncateAbove(height: number): void {
    this.checkOpen();
    const keep = Math.max(0, height - this.firstHeight + 1);
    for (const block of this.blocks.splice(keep)) {
      const { transactions, receipts } = blockIndexKeys(block);
      this.byHash.delete(block.hash);
      for (const t of transactions) this.byTransaction.delete(t);
      for (const r of receipts) this.byReceipt.delete(r);
    }
  }

  withOneFlush<T>(body: () => T): T {
    return body();
  }

  headHeight(): number | undefined {
    return this.blocks.length === 0 ? undefined : this.firstHeight + this.blocks.length - 1;
  }

  block(height: number): StoredBlock | undefined {
    return Number.isInteger(height) ? this.blocks[height - this.firstHeight] : undefined;
  }

  *blocksFrom(height: number): Iterable<StoredBlock> {
    for (let i = Math.max(0, height - this.firstHeight); i < this.blocks.length; i++) yield this.blocks[i]!;
  }

  heightOfBlock(hash: string): number | undefined {
    return this.byHash.get(hash);
  }

  heightOfTransaction(hash: string): number | undefined {
    return this.byTransaction.get(hash);
  }

  heightOfReceipt(id: string): number | undefined {
    return this.byReceipt.get(id);
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private checkOpen(): void {
    if (this.closed) throw new ChainStoreError("the store is closed");
  }
}
