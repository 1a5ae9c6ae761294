import type { BlockCommit, Chain } from "../chain/node.js";
import type { IndexBlockInput } from "./BlockSource.js";
import type { FtBalanceReader } from "./FtBalanceReader.js";
import { IndexBuilder, type IndexBuilderOptions } from "./IndexBuilder.js";
import type { Awaitable, IndexStore } from "./IndexStore.js";
import { LocalBlockSource } from "./LocalBlockSource.js";

/** Blocks a starting indexer applies per event-loop turn while catching up. */
const DEFAULT_CATCH_UP_BATCH = 64;
/** Commits queued at most while the index is behind; beyond it they are read back from the chain. */
const MAX_QUEUED_COMMITS = 256;

export interface BlockIndexerOptions extends IndexBuilderOptions {
  /** Reads FT balances from the contracts; without one, FT balances stay `null`. */
  ftBalances?: FtBalanceReader;
  /**
   * Reports the catch-up over kept commits of `start` (a resumed chain) and `rebuild`: called before the
   * first block, every `catchUpReportEvery` blocks (default 1000) and after the last one.
   */
  onCatchUp?: (indexedHeight: number, targetHeight: number) => void;
  catchUpReportEvery?: number;
  /**
   * Blocks indexed per event-loop turn (default 64), while `start` catches up and while it
   * follows: requests are answered between turns however long the chain is, and a
   * fast-forward (64 blocks per turn) does not leave a growing queue. `rebuild` never yields.
   */
  catchUpBatch?: number;
  /** Observes the time each block took to index (benchmarks). */
  onIndexed?: (height: number, elapsedMs: number) => void;
}

/**
 * Follows the chain's block commits (a LocalBlockSource) into an IndexStore, each block's update
 * derived by the IndexBuilder (as the gateway's UpstreamFollower derives it from an upstream). The commit listener only queues the
 * commit, so indexing never delays block production; queued blocks are applied one at a time
 * on a later turn of the event loop (each block in one `apply`, so a reader sees one whole
 * block). A store whose `apply` is asynchronous (a shared engine) is awaited before the next
 * block; a synchronous one (the in-memory store) runs without a promise. A fresh store starts
 * from the genesis state; a store behind the chain catches up from the chain's kept commits,
 * which is also how `rebuild` works.
 */
export class BlockIndexer<S extends IndexStore = IndexStore> {
  private readonly queue: BlockCommit[] = [];
  private scheduled = false;
  /** An asynchronous apply is in flight: the next block waits for it. */
  private applying = false;
  private unsubscribe: (() => void) | undefined;
  private readonly waiters: { height: number; resolve: () => void }[] = [];
  /** Set by `stop`: a catch-up waiting for its next turn applies nothing more (a successor may own the store). */
  private stopped = false;
  private readonly source: LocalBlockSource;
  private readonly builder: IndexBuilder;

  constructor(
    private readonly chain: Chain,
    readonly store: S,
    private readonly options: BlockIndexerOptions = {},
  ) {
    this.source = new LocalBlockSource(chain, options.ftBalances);
    // Reads an earlier indexer over this store deferred (before a restart or a revert's rebuild).
    this.builder = new IndexBuilder(options, store.pendingBalanceReads?.() ?? []);
  }

  /** Indexes what the store lacks up to the head now, then follows new blocks. */
  start(): void {
    if (this.unsubscribe !== undefined) return;
    this.unsubscribe = this.chain.onBlockCommit((commit) => {
      this.queue.push(commit);
      // Far behind (catching up while blocks keep coming): keep only the newest commit; the
      // catch-up reads the others back from the chain store, so the queue stays bounded.
      if (this.queue.length > MAX_QUEUED_COMMITS) this.queue.splice(0, this.queue.length - 1);
      this.schedule();
    }, "rest-indexer");
    this.settle(this.catchUp(this.chain.head().height, true, this.options.catchUpBatch ?? DEFAULT_CATCH_UP_BATCH), "catching up");
  }

  /** Commits received and not yet applied (at most MAX_QUEUED_COMMITS + 1: further back, the chain store is read). */
  get backlog(): number {
    return this.queue.length;
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.queue.length = 0;
  }

  /** Indexes a whole chain into a synchronous `store` at once, from genesis to the current head. */
  static rebuild<T extends IndexStore>(chain: Chain, store: T, options: BlockIndexerOptions = {}): T {
    if (new BlockIndexer(chain, store, options).catchUp(chain.head().height, true) instanceof Promise) {
      throw new TypeError("this store applies blocks asynchronously: use BlockIndexer.rebuildAsync");
    }
    return store;
  }

  /** Indexes a whole chain into any store, awaiting each block, from genesis to the current head. */
  static async rebuildAsync<T extends IndexStore>(chain: Chain, store: T, options: BlockIndexerOptions = {}): Promise<T> {
    await new BlockIndexer(chain, store, options).catchUp(chain.head().height, true);
    return store;
  }

  /** Resolves once the index has applied `height` (at once if it already has). */
  whenIndexed(height: number): Promise<void> {
    if ((this.store.height ?? -1) >= height) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ height, resolve }));
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (!this.applying) this.drain();
    });
  }

  /**
   * Applies queued commits, up to a batch per turn (as many blocks as a fast-forward produces
   * per turn, so the queue does not grow behind one) and requests interleave between turns.
   * An asynchronous apply ends the turn: the next block waits for it.
   */
  private drain(): void {
    const batch = this.options.catchUpBatch ?? DEFAULT_CATCH_UP_BATCH;
    for (let n = 0; n < batch; n++) {
      const commit = this.queue.shift();
      if (commit === undefined) break;
      let applied: Awaitable<void>;
      try {
        const indexed = this.store.height ?? -1;
        const caughtUp = commit.block.height > indexed + 1 ? this.catchUp(commit.block.height - 1, false, batch) : undefined;
        applied = caughtUp instanceof Promise ? caughtUp.then(() => this.applyIfNew(commit)) : this.applyIfNew(commit);
      } catch (error) {
        applied = undefined;
        process.emitWarning(`indexer failed at block ${commit.block.height}: ${String(error)}`);
      }
      if (applied instanceof Promise || n === batch - 1 || this.queue.length === 0) {
        this.settle(applied, `at block ${commit.block.height}`);
        return;
      }
    }
    this.settle(undefined, "draining");
  }

  private applyIfNew(commit: BlockCommit): Awaitable<void> {
    return commit.block.height > (this.store.height ?? -1) ? this.applyInput(this.source.input(commit), commit.block.height) : undefined;
  }

  /** After a step: wakes waiters and drains on; an asynchronous step holds the queue until it settles. */
  private settle(step: Awaitable<void>, where: string): void {
    if (!(step instanceof Promise)) {
      this.notify();
      if (this.queue.length > 0) this.schedule();
      return;
    }
    this.applying = true;
    step
      .catch((error: unknown) => process.emitWarning(`indexer failed ${where}: ${String(error)}`))
      .finally(() => {
        this.applying = false;
        this.settle(undefined, where);
      });
  }

  private notify(): void {
    const height = this.store.height ?? -1;
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const waiter = this.waiters[i];
      if (waiter === undefined || waiter.height > height) continue;
      this.waiters.splice(i, 1);
      waiter.resolve();
    }
  }

  /**
   * Applies genesis (for a fresh store) and every kept commit up to `height`: synchronously
   * while the store applies synchronously, awaiting each block once it does not.
   */
  private catchUp(height: number, reported = false, batch = Infinity): Awaitable<void> {
    const genesisHeight = this.source.genesisHeight();
    const genesis = this.store.height === null ? this.applyInput(this.source.block(genesisHeight), genesisHeight) : undefined;
    if (genesis instanceof Promise) return genesis.then(() => this.catchUpFromStore(height, reported, batch));
    return this.catchUpFromStore(height, reported, batch);
  }

  /** Applies the kept commits after the store's height up to `height`, yielding to the event loop every `batch` blocks. */
  private catchUpFromStore(height: number, reported: boolean, batch: number): Awaitable<void> {
    const from = (this.store.height ?? this.source.genesisHeight() - 1) + 1;
    const report = reported && from <= height ? this.options.onCatchUp : undefined;
    const every = Math.max(1, this.options.catchUpReportEvery ?? 1000);
    report?.(from - 1, height);
    const finish = () => {
      report?.(height, height);
      this.notify();
    };
    const applyFrom = (start: number): Awaitable<void> => {
      for (let h = start; h <= height; h++) {
        if (this.stopped) return undefined;
        if (h - start >= batch) return new Promise<void>((resolve) => setImmediate(resolve)).then(() => applyFrom(h));
        const applied = this.applyInput(this.source.block(h), h);
        const reportAt = (h - from + 1) % every === 0 && h < height;
        if (applied instanceof Promise) {
          return applied.then(() => {
            if (reportAt) report?.(h, height);
            this.notify();
            return applyFrom(h + 1);
          });
        }
        if (reportAt) report?.(h, height);
      }
      finish();
      return undefined;
    };
    return applyFrom(from);
  }

  private applyInput(input: IndexBlockInput | undefined, height: number): Awaitable<void> {
    if (input === undefined) throw new Error(`the chain kept no commit for block ${height}`);
    const started = performance.now();
    const indexed = () => this.options.onIndexed?.(input.height, performance.now() - started);
    const update = this.builder.update(input);
    const applied = update instanceof Promise ? update.then((u) => this.store.apply(u)) : this.store.apply(update);
    if (applied instanceof Promise) return applied.then(indexed);
    indexed();
    return undefined;
  }
}
