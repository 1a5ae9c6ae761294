import type { Block } from "../chain/blocks/Block.js";
import type { BlockCommit, Chain } from "../chain/node.js";
import type { AccessKey } from "@shardkit/primitives/accessKey";
import { base58Encode } from "@shardkit/primitives/base58";
import { base64Decode } from "../chain/primitives/base64.js";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import type { CausedStateChange } from "../chain/views/BlockStateChanges.js";
import { FT_BALANCE_READ_LIMITS, ftBalanceFromOutcome, type FtBalanceReader, viewCallOf } from "./FtBalanceReader.js";
import { genesisTokenRows, type GenesisAmountRead } from "./genesisTokenRows.js";
import { UnknownAccountError } from "../chain/vm/UnknownAccountError.js";
import type { AccountStateRow, Awaitable, FtBalance, IndexBlockUpdate, IndexStore, KeyPermission } from "./IndexStore.js";
import { tokenActivity, type ExecutedReceipt } from "./tokenActivity.js";

/** Blocks a starting indexer applies per event-loop turn while catching up. */
const DEFAULT_CATCH_UP_BATCH = 64;
/** Commits queued at most while the index is behind; beyond it they are read back from the chain. */
const MAX_QUEUED_COMMITS = 256;

/** An FT row while its block is indexed (the balance is filled in by readBalances). */
interface FtRowDraft {
  accountId: string;
  contractId: string;
  balance: FtBalance;
  deferred?: boolean;
}

export interface BlockIndexerOptions {
  /** Reads FT balances from the contracts; without one, FT balances stay `null`. */
  ftBalances?: FtBalanceReader;
  /** Balance reads per block at most (default 32); the rest are deferred to later blocks. */
  maxBalanceReadsPerBlock?: number;
  /** Balance reads of one token contract per block at most (default 8). */
  maxBalanceReadsPerContract?: number;
  /** Deferred reads kept at most (default 10 000); beyond it the oldest are dropped. */
  maxDeferredBalanceReads?: number;
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
 * Follows the chain's block commits into an IndexStore. The commit listener only queues the
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
  /** FT balance reads the per-block caps deferred, oldest first, keyed "contract account". */
  private readonly deferredReads = new Map<string, { accountId: string; contractId: string }>();

  constructor(
    private readonly chain: Chain,
    readonly store: S,
    private readonly options: BlockIndexerOptions = {},
  ) {
    // Reads an earlier indexer over this store deferred (before a restart or a revert's rebuild).
    for (const pair of store.pendingBalanceReads?.() ?? []) this.deferredReads.set(`${pair.contractId} ${pair.accountId}`, { ...pair });
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
    return commit.block.height > (this.store.height ?? -1) ? this.applyCommit(commit) : undefined;
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
      if (this.waiters[i]!.height <= height) this.waiters.splice(i, 1)[0]!.resolve();
    }
  }

  /**
   * Applies genesis (for a fresh store) and every kept commit up to `height`: synchronously
   * while the store applies synchronously, awaiting each block once it does not.
   */
  private catchUp(height: number, reported = false, batch = Infinity): Awaitable<void> {
    const genesis = this.store.height === null ? this.applyGenesis() : undefined;
    if (genesis instanceof Promise) return genesis.then(() => this.catchUpFromStore(height, reported, batch));
    return this.catchUpFromStore(height, reported, batch);
  }

  /** Applies the kept commits after the store's height up to `height`, yielding to the event loop every `batch` blocks. */
  private catchUpFromStore(height: number, reported: boolean, batch: number): Awaitable<void> {
    const from = this.store.height! + 1;
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
        const commit = this.chain.blockCommit(h);
        if (commit === undefined) throw new Error(`the chain kept no commit for block ${h}`);
        const applied = this.applyCommit(commit);
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

  /**
   * Every account and access key of the genesis state, and the token rows that exist from
   * genesis (FT balances, NFT owners, pool delegators: see genesisTokenRows), which no receipt
   * will ever announce.
   */
  private applyGenesis(): Awaitable<void> {
    const genesis = this.chain.genesisBlock;
    const records = this.chain.stateChangesInBlock(genesis);
    const accountEntries = records.entriesOf("account");
    const accounts = accountEntries.map(([record]) => record!.change.accountId);
    const contracts = accounts.filter((accountId) => this.chain.at(genesis).codeLength(accountId) > 0);
    const ftRead = this.options.ftBalances;
    const tokens = genesisTokenRows(contracts, accounts, {
      ft: ftRead === undefined ? undefined : (contractId, _method, accountId) => ftRead(genesis, contractId, accountId) ?? "",
      other: this.genesisView(genesis),
    });
    return this.store.apply({
      ...this.stateUpdates([...accountEntries, ...records.entriesOf("accessKey")]),
      height: genesis.height,
      blockHash: genesis.hash,
      timestampNs: genesis.timestampNs,
      ...tokens,
      balancesRead: ftRead !== undefined,
    });
  }

  /** View calls at the genesis block within the indexer's read budget. */
  private genesisView(genesis: Block): GenesisAmountRead {
    const callFunction = viewCallOf(this.chain);
    return (contractId, methodName, accountId) => {
      try {
        const args = Buffer.from(JSON.stringify({ account_id: accountId }));
        return ftBalanceFromOutcome(callFunction(genesis, contractId, methodName, args, FT_BALANCE_READ_LIMITS)) ?? "";
      } catch (error) {
        if (error instanceof UnknownAccountError) return "";
        throw error;
      }
    };
  }

  private applyCommit(commit: BlockCommit): Awaitable<void> {
    const started = performance.now();
    const { block } = commit;
    const ft = new Map<string, FtRowDraft>();
    const nft = new Map<string, { accountId: string; contractId: string }>();
    const pools = new Map<string, { accountId: string; poolId: string }>();
    for (const outcome of commit.receiptOutcomes) {
      const receipt = this.executedReceipt(outcome);
      if (receipt === undefined) continue;
      const activity = tokenActivity(receipt);
      for (const row of activity.ft) ft.set(`${row.contractId} ${row.accountId}`, { ...row, balance: null });
      for (const row of activity.nft) nft.set(`${row.contractId} ${row.accountId}`, row);
      for (const row of activity.pools) pools.set(`${row.poolId} ${row.accountId}`, row);
    }
    const read = this.options.ftBalances;
    const retries = read === undefined ? [] : this.readBalances(block, read, ft);
    const update: IndexBlockUpdate = {
      ...this.stateUpdates(commit.stateChanges.entries()),
      height: block.height,
      blockHash: block.hash,
      timestampNs: block.timestampNs,
      ft: [...ft.values()],
      nft: [...nft.values()],
      pools: [...pools.values()],
      balancesRead: read !== undefined,
      ...(retries.length === 0 ? {} : { ftRetries: retries }),
    };
    const applied = this.store.apply(update);
    if (applied instanceof Promise) return applied.then(() => this.options.onIndexed?.(block.height, performance.now() - started));
    this.options.onIndexed?.(block.height, performance.now() - started);
    return undefined;
  }

  /**
   * Reads the block's FT balances, each (contract, account) pair once, within the per-block
   * and per-contract caps: one token emitting hundreds of events (or a slow `ft_balance_of`)
   * cannot hold the thread that serves RPC and produces blocks for long. Pairs deferred by
   * earlier blocks go first; pairs over a cap are marked deferred (the store keeps their
   * previous balance) and read at the next block. Returns the deferred pairs read now.
   */
  private readBalances(block: Block, read: FtBalanceReader, ft: Map<string, FtRowDraft>): FtRowDraft[] {
    const perBlock = this.options.maxBalanceReadsPerBlock ?? 32;
    const perContract = this.options.maxBalanceReadsPerContract ?? 8;
    const maxDeferred = this.options.maxDeferredBalanceReads ?? 10_000;
    let reads = 0;
    const byContract = new Map<string, number>();
    const done = new Set<string>();
    const tryRead = (key: string, row: FtRowDraft): boolean => {
      const count = byContract.get(row.contractId) ?? 0;
      if (reads >= perBlock || count >= perContract) return false;
      reads++;
      done.add(key);
      byContract.set(row.contractId, count + 1);
      row.balance = read(block, row.contractId, row.accountId);
      return true;
    };
    const retries: FtRowDraft[] = [];
    for (const [key, pair] of this.deferredReads) {
      if (reads >= perBlock) break;
      const row = ft.get(key) ?? { ...pair, balance: null };
      if (!tryRead(key, row)) continue;
      this.deferredReads.delete(key);
      if (!ft.has(key)) retries.push(row);
    }
    for (const [key, row] of ft) {
      if (done.has(key) || tryRead(key, row)) continue;
      row.deferred = true;
      if (!this.deferredReads.has(key)) this.deferredReads.set(key, { accountId: row.accountId, contractId: row.contractId });
    }
    for (const key of this.deferredReads.keys()) {
      if (this.deferredReads.size <= maxDeferred) break;
      this.deferredReads.delete(key);
    }
    return retries;
  }

  private executedReceipt(outcome: BlockCommit["receiptOutcomes"][number]): ExecutedReceipt | undefined {
    const view = this.chain.receipt(base58Encode(outcome.id));
    if (view === undefined || !("Action" in view.receipt)) return undefined;
    const calls = view.receipt.Action.actions.flatMap((action) =>
      typeof action === "object" && "FunctionCall" in action
        ? [{ methodName: action.FunctionCall.method_name, args: base64Decode(action.FunctionCall.args) }]
        : [],
    );
    return {
      predecessorId: view.predecessor_id,
      receiverId: view.receiver_id,
      calls,
      succeeded: outcome.status.kind !== "Failure",
      logs: outcome.logs,
    };
  }

  /** Account states and access keys after the block: the last change of each account and key it changed. */
  private stateUpdates(entries: readonly (readonly CausedStateChange[])[]): Pick<IndexBlockUpdate, "accountStates" | "accessKeys"> {
    const accountStates = new Map<string, AccountStateRow | null>();
    const accessKeys: IndexBlockUpdate["accessKeys"][number][] = [];
    for (const entry of entries) {
      const { change } = entry[entry.length - 1]!;
      if (change.type === "account") {
        const a = change.account;
        accountStates.set(change.accountId, a === null ? null : { balance: a.amount.toString(), locked: a.locked.toString(), storageBytes: a.storageUsage });
      } else if (change.type === "accessKey") {
        const publicKey = typeof change.publicKey === "string" ? change.publicKey : formatPublicKey(change.publicKey);
        accessKeys.push({ publicKey, accountId: change.accountId, permission: change.accessKey === null ? null : permissionOf(change.accessKey) });
      }
    }
    return { accountStates, accessKeys };
  }
}

function permissionOf(key: AccessKey): KeyPermission {
  return key.permission === "FullAccess" ? "full" : "limited";
}
