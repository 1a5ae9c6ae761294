import type { BlockCommit, Chain } from "../../chain/node.js";
import type { Awaitable } from "../IndexStore.js";
import { historyBlockData, historyBlockInput } from "./historyBlockData.js";
import { CatchUpProgress } from "./CatchUpProgress.js";
import { HistoryBuilder } from "./HistoryBuilder.js";
import { historyBlockRow } from "./historyBlockRow.js";
import type { HistoryBlockUpdate, HistoryStore } from "./HistoryStore.js";

/** Blocks indexed per event-loop turn, so requests are answered between turns while catching up. */
const BATCH = 64;
/** Commits queued at most while the index is behind; beyond it they are read back from the chain (as BlockIndexer does). */
const MAX_QUEUED_COMMITS = 256;

export interface HistoryIndexerOptions {
  /**
   * A backlog of more than one turn's blocks (a data dir without its index, or behind it):
   * called when the catch-up starts, every 1,000 blocks, and with `indexed === target` when done.
   */
  readonly onCatchUp?: ((indexed: number, target: number) => void) | undefined;
}

/** What a service's history index offers, in this thread (HistoryIndexer) or a worker (WorkerHistoryIndexer). */
export interface HistoryFollower {
  /** `/v0` reads. */
  readonly store: HistoryStore;
  /** Resolves once the index has applied `height` (rejects if the index stops first). */
  whenIndexed(height: number): Promise<void>;
  /** Blocks the chain has produced that the index has not applied yet. */
  readonly lag: number;
  /**
   * Backpressure for whoever drives production: resolves once the index is at most `maxLag`
   * blocks behind the chain's head (at once when it is), so a producer that waits on it before
   * its next block never lets the index fall further behind.
   */
  whenLagAtMost(maxLag: number): Promise<void>;
}

/**
 * Follows the chain's block commits into a HistoryStore: a block row per block, and per
 * transaction its block row, its receipts with outcomes and one row per account involved,
 * rewritten each time a block executes one of its receipts, until none is pending. Like
 * BlockIndexer, the commit listener only queues: indexing never delays block production.
 */
export class HistoryIndexer implements HistoryFollower {
  private readonly queue: BlockCommit[] = [];
  private scheduled = false;
  private unsubscribe: (() => void) | undefined;
  private readonly waiters: { height: number; resolve: () => void; reject: (error: Error) => void }[] = [];
  private readonly builder = new HistoryBuilder();
  private readonly progress: CatchUpProgress;

  /**
   * Takes over `store` as it is (a data dir's index, or one rewound after a revert): rewinds
   * it to the last block it shares with the chain, and resumes its incomplete transactions.
   */
  constructor(
    private readonly chain: Chain,
    readonly store: HistoryStore,
    private readonly options: HistoryIndexerOptions = {},
  ) {
    this.progress = new CatchUpProgress(options.onCatchUp, BATCH);
    this.rewindToChain();
    for (const record of settled(store.incompleteTransactions())) {
      this.builder.resume(record, this.chain.blockByHeight(record.row.tx_block_height)?.view.header.gas_price);
    }
  }

  /** Indexes what the store lacks up to the head (in batches), then follows new blocks. */
  start(): void {
    if (this.unsubscribe !== undefined) return;
    this.unsubscribe = this.chain.onBlockCommit((commit) => {
      this.queue.push(commit);
      if (this.queue.length > MAX_QUEUED_COMMITS) this.queue.splice(0, this.queue.length - 1);
      this.schedule();
    }, "history-indexer");
    this.schedule();
  }

  /** Stops following the chain; a wait for a height it had not indexed is rejected (it would never end). */
  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.queue.length = 0;
    for (const waiter of this.waiters.splice(0)) waiter.reject(new Error("the history indexer stopped"));
  }

  /** Resolves once the index has applied `height`. */
  whenIndexed(height: number): Promise<void> {
    if ((this.store.height ?? -1) >= height) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ height, resolve, reject }));
  }

  get lag(): number {
    return this.chain.head().height - (this.store.height ?? this.chain.genesisBlock.height - 1);
  }

  whenLagAtMost(maxLag: number): Promise<void> {
    return this.whenIndexed(this.chain.head().height - maxLag);
  }

  private schedule(): void {
    if (this.scheduled || this.unsubscribe === undefined) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      try {
        this.drain();
      } catch (error) {
        process.emitWarning(`history indexer failed: ${String(error)}`);
      }
    });
  }

  /**
   * Indexes up to BATCH blocks, kept commits the store lacks first, then queued ones, and writes
   * them to the store together (a transaction the batch advances several times is written once).
   */
  private drain(): void {
    if (this.unsubscribe === undefined) return;
    const target = this.chain.head().height;
    this.reportCatchUp(target);
    const updates: HistoryBlockUpdate[] = [];
    let indexed = this.store.height ?? -1;
    try {
      if (this.store.height === null) {
        updates.push(this.genesisUpdate());
        indexed = this.chain.genesisBlock.height;
      }
      while (updates.length < BATCH && indexed < target) {
        const height = indexed + 1;
        const queued = this.queue[0]?.block.height === height ? this.queue.shift() : undefined;
        const commit = queued ?? this.chain.blockCommit(height);
        if (commit === undefined) throw new Error(`the chain kept no commit for block ${height}`);
        updates.push(this.update(commit));
        indexed = height;
      }
    } finally {
      // The builder has moved past every block built: those go to the store even when a later one failed.
      settled(this.store.applyBlocks(updates));
    }
    while (this.queue.length > 0 && (this.queue[0]?.block.height ?? Infinity) <= indexed) this.queue.shift();
    this.reportCatchUp(target);
    this.notify();
    if (indexed < this.chain.head().height || this.queue.length > 0) this.schedule();
  }

  /** A step of a catch-up found at start (see CatchUpProgress). */
  private reportCatchUp(target: number): void {
    this.progress.step(this.store.height ?? this.chain.genesisBlock.height - 1, target);
  }

  /**
   * A store ahead of the chain, or on another branch (a data dir whose chain was reverted or
   * replaced while the index was not open): rewound to the last block both have.
   */
  private rewindToChain(): void {
    const indexed = this.store.height;
    if (indexed === null) return;
    const genesis = this.chain.genesisBlock;
    const sameBlock = (h: number) => {
      const kept = this.chain.blockByHeight(h);
      return kept !== undefined && settled(this.store.block(h))?.row.block_hash === kept.hash;
    };
    if (!sameBlock(genesis.height)) {
      settled(this.store.rewind(genesis.height - 1));
      return;
    }
    let h = Math.min(indexed, this.chain.head().height);
    while (h > genesis.height && !sameBlock(h)) h--;
    if (h < indexed) settled(this.store.rewind(h));
  }

  private notify(): void {
    const height = this.store.height ?? -1;
    for (const waiter of this.waiters.filter((w) => w.height <= height)) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  }

  private genesisUpdate(): HistoryBlockUpdate {
    return { block: historyBlockRow(this.chain, this.chain.genesisBlock), transactions: [], receipts: [] };
  }

  /** The commit's history update (see historyBlockInput). */
  private update(commit: BlockCommit): HistoryBlockUpdate {
    return this.builder.update(historyBlockInput(historyBlockData(this.chain, commit.block)));
  }
}

/** A store's answer, which the indexer needs at once (every store it is given answers synchronously so far). */
function settled<T>(value: Awaitable<T>): T {
  if (value instanceof Promise) throw new TypeError("HistoryIndexer needs a synchronous store (an asynchronous one is a later step)");
  return value as T;
}
