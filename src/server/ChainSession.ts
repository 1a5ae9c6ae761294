import { rmSync } from "node:fs";
import { join } from "node:path";
import { Chain, type ChainOptions } from "../chain/node.js";
import { DevChainControl } from "../chain/sandbox/DevChainControl.js";
import { BlockIndexer } from "../indexer/BlockIndexer.js";
import { ftBalanceReaderFrom, viewCallOf, type FtBalanceReader } from "../indexer/FtBalanceReader.js";
import { idleBlockRowOf } from "../indexer/history/historyBlockRow.js";
import { HistoryIndexer, type HistoryFollower, type HistoryIndexerOptions } from "../indexer/history/HistoryIndexer.js";
import { MemoryHistoryStore } from "../indexer/history/MemoryHistoryStore.js";
import { WorkerHistoryIndexer } from "../indexer/history/WorkerHistoryIndexer.js";
import { LmdbIndexStore } from "../indexer/LmdbIndexStore.js";
import { MemoryIndexStore } from "../indexer/MemoryIndexStore.js";
import type { Logger } from "./log/Logger.js";
import { logOutcomes } from "./log/outcomeLog.js";

/** What every chain a service runs is wired with (the same for the chain after a reset). */
export interface ChainSessionOptions {
  readonly ftBalances?: FtBalanceReader | undefined;
  readonly onIndexCatchUp?: ((indexedHeight: number, targetHeight: number) => void) | undefined;
  readonly onHistoryCatchUp?: ((indexedHeight: number, targetHeight: number) => void) | undefined;
  readonly onProductionFailure?: ((error: Error) => void) | undefined;
  readonly onProductionRetry?: ((error: Error) => void) | undefined;
  readonly fastForwardStepMs?: number | undefined;
  /** Logs failing commit subscribers (when given) and outcomes. */
  readonly logger: Logger;
  readonly logSubscriberFailures: boolean;
  /** A fault to inject into the history worker (tests): it fails at the block of this height. */
  readonly historyWorkerFailAt?: number | undefined;
}

/**
 * One chain a service serves and everything that follows it: the REST index (in
 * `<data-dir>/rest-index` on a durable chain, else in memory), the transaction history index
 * (in `<data-dir>/history`, built and written by a worker thread; on an in-memory chain in
 * memory, in this thread: the worker could not share a memory store with the `/v0` reads),
 * the dev-chain controls (a revert rewinds both indexes) and the outcome log. `shardkit_reset` closes one session and opens the next; the listeners stay.
 */
export class ChainSession {
  private indexerNow: BlockIndexer;
  /** In this thread (an in-memory chain; a new one over the same store after each revert), else undefined. */
  private historyNow: HistoryIndexer | undefined;
  private stopping = false;
  private readonly stopOutcomeLog: () => void;

  private constructor(
    readonly chain: Chain,
    /** The index a worker builds (a durable chain), or the memory store the in-thread indexer fills. */
    private readonly history: WorkerHistoryIndexer | MemoryHistoryStore,
    /** The data dir's REST index (undefined: a new one in memory per indexer). */
    private readonly restStore: LmdbIndexStore | MemoryIndexStore,
    private readonly options: ChainSessionOptions,
  ) {
    const { logger } = options;
    if (options.onProductionFailure !== undefined) chain.onProductionFailure(options.onProductionFailure);
    if (options.onProductionRetry !== undefined) chain.onProductionRetry(options.onProductionRetry);
    if (options.logSubscriberFailures) {
      chain.onSubscriberFailure((subscriber, height, error) =>
        logger.error("block commit subscriber failed", { subscriber, height, error: error instanceof Error ? error.message : String(error) }),
      );
    }
    this.indexerNow = this.newIndexer(options.onIndexCatchUp);
    this.historyNow = this.newHistoryIndexer();
    this.devChain = new DevChainControl(chain, { fastForwardStepMs: options.fastForwardStepMs });
    // A fast-forward keeps the history index within a worker's in-flight blocks of the head
    // (it would otherwise fall behind by up to the whole fast-forward) and answers once the
    // index has the new head, so `/v0` sees the blocks a fast-forward reports.
    this.devChain.gateFastForward((final) => {
      const history = this.runningHistoryIndexer();
      const maxLag = final ? 0 : FAST_FORWARD_HISTORY_LAG;
      return history.lag > maxLag ? history.whenLagAtMost(maxLag) : undefined;
    });
    // A revert drops blocks the indexes have rows from: the REST index undoes them (on disk or
    // in memory, by its undo entries); the history worker rewinds its index
    // after the blocks it was sent before the revert; an in-thread history index keeps its store
    // and a new indexer over it rewinds it. From the next event-loop turn on (the revert's
    // answer does not wait for them).
    this.devChain.onRevert(() => {
      this.indexerNow.stop();
      this.historyNow?.stop();
      if (this.history instanceof WorkerHistoryIndexer) this.history.afterRevert();
      const indexer = (this.indexerNow = this.newIndexer(undefined));
      const history = (this.historyNow = this.newHistoryIndexer());
      setImmediate(() => {
        if (this.indexerNow === indexer && !this.stopping) indexer.start();
        if (this.historyNow === history && !this.stopping) history?.start();
      });
    });
    this.stopOutcomeLog = logOutcomes(chain, logger);
  }

  /** Sandbox and shardkit_* controls of this chain. */
  readonly devChain: DevChainControl;

  /** The REST index (a new one after each revert). */
  get indexer(): BlockIndexer {
    return this.indexerNow;
  }

  /** The transaction history index (in this thread: a new one over the same store after each revert). */
  get historyIndexer(): HistoryFollower {
    return this.runningHistoryIndexer();
  }

  /** The in-thread indexer, or the worker when one indexes (then there is no in-thread one). */
  private runningHistoryIndexer(): HistoryIndexer | WorkerHistoryIndexer {
    if (this.historyNow !== undefined) return this.historyNow;
    if (this.history instanceof WorkerHistoryIndexer) return this.history;
    throw new Error("an in-thread history index has no indexer");
  }

  /** Opens the chain (or takes `opened`, opened from `chainOptions`) and its indexes; nothing runs until `start`. */
  static async open(chainOptions: ChainOptions, options: ChainSessionOptions, opened?: Chain): Promise<ChainSession> {
    const chain = opened ?? (await Chain.open(chainOptions));
    let history: WorkerHistoryIndexer | MemoryHistoryStore | undefined;
    let restStore: LmdbIndexStore | MemoryIndexStore = new MemoryIndexStore();
    try {
      const dataDir = chain.durable ? chainOptions.dataDir : undefined;
      history =
        dataDir !== undefined
          ? await WorkerHistoryIndexer.open(chain, join(dataDir, "history"), {
              onCatchUp: options.onHistoryCatchUp,
              onFailure: (error) => options.logger.error("the transaction history index stopped; /v0 answers 503 until the service restarts", { error: error.message }),
              failAtHeight: options.historyWorkerFailAt,
            })
          : new MemoryHistoryStore({ idleBlockRow: idleBlockRowOf(chain) });
      if (dataDir !== undefined) restStore = openRestIndex(join(dataDir, REST_INDEX_DIR));
    } catch (e) {
      await history?.close();
      await chain.close();
      throw e;
    }
    return new ChainSession(chain, history, restStore, options);
  }

  /** Starts the indexes and block production. */
  start(): void {
    this.indexerNow.start();
    this.runningHistoryIndexer().start();
    this.chain.start();
  }

  /** Stops everything and closes the history store and the chain (flushing an on-disk one). */
  async close(): Promise<void> {
    this.stopping = true;
    this.stopOutcomeLog();
    this.chain.stop();
    this.indexerNow.stop();
    this.historyNow?.stop();
    await this.history.close();
    if (this.restStore instanceof LmdbIndexStore) await this.restStore.close();
    await this.chain.close();
  }

  private newIndexer(onCatchUp: ChainSessionOptions["onIndexCatchUp"]): BlockIndexer {
    const ftBalances = this.options.ftBalances ?? ftBalanceReaderFrom(viewCallOf(this.chain));
    // An index holding blocks the chain no longer has (a revert, now or while a data dir's was
    // closed) undoes them; one whose undo entries do not reach a kept block is rebuilt from genesis.
    if (!this.restStore.rewindToChain((height) => this.chain.blockByHeight(height)?.hash)) this.restStore.clear();
    return new BlockIndexer(this.chain, this.restStore, { ftBalances, ...(onCatchUp && { onCatchUp }) });
  }

  /** An in-thread indexer over the memory store (none when a worker indexes). */
  private newHistoryIndexer(): HistoryIndexer | undefined {
    if (this.history instanceof WorkerHistoryIndexer) return undefined;
    const options: HistoryIndexerOptions = this.options.onHistoryCatchUp === undefined ? {} : { onCatchUp: this.options.onHistoryCatchUp };
    return new HistoryIndexer(this.chain, this.history, options);
  }
}

/** The history index's lag a fast-forward allows between its turns, in blocks (a worker's in-flight bound). */
const FAST_FORWARD_HISTORY_LAG = 256;

/** The REST index's directory in a data dir (a reset removes it with the chain). */
export const REST_INDEX_DIR = "rest-index";

/** The data dir's REST index; one that cannot be opened (damaged) is removed and built again from the blocks. */
function openRestIndex(dir: string): LmdbIndexStore {
  try {
    return LmdbIndexStore.open(dir);
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return LmdbIndexStore.open(dir);
  }
}
