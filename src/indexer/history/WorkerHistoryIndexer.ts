import type { Worker } from "node:worker_threads";
import type { Block, Chain } from "../../chain/node.js";
import { startWorker } from "../../chain/startWorker.js";
import { CatchUpProgress } from "./CatchUpProgress.js";
import { historyBlockData, type HistoryBlockData } from "./historyBlockData.js";
import type { HistoryFollower, HistoryIndexerOptions } from "./HistoryIndexer.js";
import type { FromHistoryWorker, HistoryWorkerData, ToHistoryWorker } from "./historyWorkerMessages.js";
import { LmdbHistoryStore } from "./LmdbHistoryStore.js";

/** Blocks a message carries at most while catching up (the worker writes up to this many in one transaction). */
const BATCH = 64;
/** Blocks sent and not yet indexed at most: beyond, the next ones are read back from the chain as the worker catches up. */
const MAX_AHEAD = 4 * BATCH;

export interface WorkerHistoryIndexerOptions extends HistoryIndexerOptions {
  /** The worker stopped (an error while indexing, or the thread died): `/v0` answers 503 from then on. */
  readonly onFailure?: ((error: Error) => void) | undefined;
  /** A fault to inject (tests): the worker fails at the block of this height. */
  readonly failAtHeight?: number | undefined;
}

/**
 * The data dir's transaction history index, built and written by a worker thread
 * (`historyWorker.ts`), so that indexing runs beside block production instead of between its
 * blocks. The main thread sends each block as it is produced (its raw outcomes, as
 * HistoryBlockData: the views and the writes are the worker's) and reads `/v0` from the same
 * LMDB environment (`store`, a reader whose height is what the worker last reported). A
 * backlog (an index rebuilt from the blocks, a worker behind) is read back from the chain, at
 * most MAX_AHEAD blocks ahead of the worker. A revert is a request in the same queue as the
 * blocks, so the worker rewinds after the blocks sent before it and before any sent after.
 */
export class WorkerHistoryIndexer implements HistoryFollower {
  /** The height the worker reported last (null: nothing indexed, not even genesis). */
  private indexed: number | null;
  /** The last height sent to the worker. */
  private posted: number;
  /** Rewinds sent and not yet answered: reports meanwhile are about blocks the rewind drops. */
  private rewinds = 0;
  private unsubscribe: (() => void) | undefined;
  private pumpScheduled = false;
  private commitScheduled = false;
  private failure: Error | undefined;
  private readonly waiters: { height: number; resolve: () => void; reject: (e: Error) => void }[] = [];
  private running = true;
  private readonly exited: Promise<void>;
  private closed: Promise<void> | undefined;
  private readonly progress: CatchUpProgress;

  private constructor(
    private readonly chain: Chain,
    private readonly worker: Worker,
    /** `/v0` reads, on the main thread. */
    readonly store: LmdbHistoryStore,
    opened: number | null,
    private readonly options: WorkerHistoryIndexerOptions,
  ) {
    this.indexed = opened;
    this.progress = new CatchUpProgress(options.onCatchUp, BATCH);
    this.posted = opened ?? chain.genesisBlock.height - 1;
    this.exited = new Promise((resolve) => worker.once("exit", () => resolve()));
    worker.on("message", (message: FromHistoryWorker) => this.received(message));
    worker.on("error", (error) => this.fail(error));
    worker.once("exit", (code) => {
      this.running = false;
      if (this.closed === undefined) this.fail(new Error(`the history worker exited (code ${code})`));
    });
    this.rewindToChain();
  }

  /**
   * Starts the worker on the index in `dir` and opens it for reads once the worker has it open
   * (the worker applies the index's format and crash rules first). Throws what the worker met
   * opening it (the data dir's other parts are not touched).
   */
  static async open(chain: Chain, dir: string, options: WorkerHistoryIndexerOptions = {}): Promise<WorkerHistoryIndexer> {
    const workerData: HistoryWorkerData = { dir, failAtHeight: options.failAtHeight };
    const worker = startWorker(import.meta.url, "historyWorker", { workerData });
    let settle: { resolve: (height: number | null) => void; reject: (error: unknown) => void } | undefined;
    const onMessage = (message: FromHistoryWorker) => {
      if (message.type === "opened") settle?.resolve(message.height);
      else if (message.type === "failed") settle?.reject(new Error(`the history index in ${dir} cannot be opened: ${message.message}`));
    };
    const onError = (error: Error) => settle?.reject(error);
    const onExit = (code: number) => settle?.reject(new Error(`the history worker exited (code ${code}) opening ${dir}`));
    worker.on("message", onMessage).on("error", onError).on("exit", onExit);
    const opened = await new Promise<number | null>((resolve, reject) => (settle = { resolve, reject }))
      .catch(async (error: unknown) => {
        await worker.terminate();
        throw error;
      })
      .finally(() => {
        worker.off("message", onMessage).off("error", onError).off("exit", onExit);
      });
    let store: LmdbHistoryStore;
    try {
      store = LmdbHistoryStore.openReader(dir);
    } catch (error) {
      await worker.terminate();
      throw error;
    }
    store.followWriter({ height: opened });
    return new WorkerHistoryIndexer(chain, worker, store, opened, options);
  }

  /** False once the worker thread has exited (after close, or a crash). */
  get workerRunning(): boolean {
    return this.running;
  }

  /** Sends what the index lacks up to the head (in batches), then each new block as it is produced. */
  start(): void {
    if (this.unsubscribe !== undefined || this.failure !== undefined) return;
    // A block listener runs as the block is produced (after its commit), so the worker starts
    // on it while the next one is produced; a commit subscriber would wait for a later turn.
    this.unsubscribe = this.chain.onBlock((block) => this.produced(block));
    this.reportCatchUp();
    this.pump();
  }

  /** Resolves once the index has applied `height` (rejects when the worker has stopped). */
  whenIndexed(height: number): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.rewinds === 0 && (this.indexed ?? -1) >= height) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ height, resolve, reject }));
  }

  get lag(): number {
    return this.chain.head().height - (this.indexed ?? this.chain.genesisBlock.height - 1);
  }

  whenLagAtMost(maxLag: number): Promise<void> {
    return this.whenIndexed(this.chain.head().height - maxLag);
  }

  /** The chain was reverted: the worker forgets the blocks it no longer has (after those already sent), then indexes from there. */
  afterRevert(): void {
    this.rewindTo(this.chain.head().height);
  }

  /** Stops following the chain and the worker (which flushes and closes the index), then the reader. */
  close(): Promise<void> {
    return (this.closed ??= this.shutDown());
  }

  private async shutDown(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    if (this.running) {
      const closedByWorker = new Promise<void>((resolve) => this.worker.on("message", (m: FromHistoryWorker) => m.type === "closed" && resolve()));
      this.post({ type: "close" });
      await Promise.race([closedByWorker, this.exited]);
      await this.worker.terminate();
    }
    this.rejectWaiters(new Error("the history index was closed"));
    await this.store.close();
  }

  private produced(block: Block): void {
    // The usual case, one block after the last one sent: sent now; anything else waits for a pump.
    if (block.height === this.posted + 1) this.pump();
    else this.schedulePump();
  }

  /** Sends the blocks after the last one sent, up to the head, at most BATCH now and MAX_AHEAD beyond the worker. */
  private pump(): void {
    if (this.unsubscribe === undefined || this.rewinds > 0 || this.failure !== undefined) return;
    const head = this.chain.head().height;
    const ahead = () => this.posted - (this.indexed ?? this.chain.genesisBlock.height - 1);
    const blocks: HistoryBlockData[] = [];
    try {
      while (this.posted < head && blocks.length < BATCH && ahead() < MAX_AHEAD) {
        const block = this.chain.blockByHeight(this.posted + 1);
        if (block === undefined) throw new Error(`the chain has no block ${this.posted + 1} below its head ${head}`);
        blocks.push(historyBlockData(this.chain, block));
        this.posted = block.height;
      }
    } catch (error) {
      this.fail(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (blocks.length > 0) {
      this.post({ type: "blocks", blocks });
      this.scheduleCommit();
    }
    if (this.posted < head && ahead() < MAX_AHEAD) this.schedulePump();
  }

  /** After this turn (the blocks produced in it, a catch-up batch): the worker writes what it built. */
  private scheduleCommit(): void {
    if (this.commitScheduled) return;
    this.commitScheduled = true;
    setImmediate(() => {
      this.commitScheduled = false;
      if (this.running && this.closed === undefined) this.post({ type: "commit" });
    });
  }

  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private post(message: ToHistoryWorker): void {
    this.worker.postMessage(message);
  }

  private received(message: FromHistoryWorker): void {
    switch (message.type) {
      case "indexed":
        // Reports sent before a rewind's answer are about blocks it drops (or is about to).
        if (this.rewinds > 0) return;
        this.advanced(message.height);
        return;
      case "rewound":
        this.rewinds--;
        if (this.rewinds > 0) return;
        this.posted = message.height ?? this.chain.genesisBlock.height - 1;
        this.advanced(message.height);
        return;
      case "failed":
        this.fail(new Error(message.message));
        return;
      default:
        return;
    }
  }

  private advanced(height: number | null): void {
    this.indexed = height;
    this.store.followWriter({ height });
    const reached = height ?? -1;
    for (const waiter of this.waiters.filter((w) => w.height <= reached)) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    this.reportCatchUp();
    this.pump();
  }

  private rewindTo(height: number): void {
    if (this.failure !== undefined) return;
    this.rewinds++;
    this.post({ type: "rewind", height });
  }

  /**
   * An index ahead of the chain, or on another branch (a data dir whose chain was reverted or
   * replaced while the index was not open): rewound to the last block both have.
   */
  private rewindToChain(): void {
    const indexed = this.indexed;
    if (indexed === null) return;
    const genesis = this.chain.genesisBlock;
    const sameBlock = (h: number) => {
      const kept = this.chain.blockByHeight(h);
      return kept !== undefined && this.store.block(h)?.row.block_hash === kept.hash;
    };
    if (!sameBlock(genesis.height)) return this.rewindTo(genesis.height - 1);
    let h = Math.min(indexed, this.chain.head().height);
    while (h > genesis.height && !sameBlock(h)) h--;
    if (h < indexed) this.rewindTo(h);
  }

  /** The worker stopped: reads answer IndexUnavailableError (503), waiters are rejected, the owner is told once. */
  private fail(error: Error): void {
    if (this.failure !== undefined || this.closed !== undefined) return;
    this.failure = error;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.store.followWriter({ failed: error.message });
    this.rejectWaiters(error);
    this.options.onFailure?.(error);
  }

  private rejectWaiters(error: Error): void {
    for (const waiter of this.waiters.splice(0)) waiter.reject(error);
  }

  /** A step of a catch-up found at start (see CatchUpProgress); not while a rewind is under way, nor before start. */
  private reportCatchUp(): void {
    if (this.rewinds > 0 || this.unsubscribe === undefined) return;
    this.progress.step(this.indexed ?? this.chain.genesisBlock.height - 1, this.chain.head().height);
  }
}
