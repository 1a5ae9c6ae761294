import type { FtPair, IndexBlockInput } from "./BlockSource.js";
import type { Awaitable, FtBalance, IndexBlockUpdate } from "./IndexStore.js";
import { tokenActivity } from "./tokenActivity.js";

/** An FT row while its block is indexed (the balance is filled in once read). */
interface FtRowDraft {
  readonly accountId: string;
  readonly contractId: string;
  balance: FtBalance;
  deferred?: boolean;
}

export interface IndexBuilderOptions {
  /** Balance reads per block at most (default 32); the rest are deferred to later blocks. */
  readonly maxBalanceReadsPerBlock?: number;
  /** Balance reads of one token contract per block at most (default 8). */
  readonly maxBalanceReadsPerContract?: number;
  /** Deferred reads kept at most (default 10 000); beyond it the oldest are dropped. */
  readonly maxDeferredBalanceReads?: number;
}

/** No cap: every pair a block touched is read at that block (an upstream's reads are calls, not this thread's time). */
export const UNCAPPED_BALANCE_READS: IndexBuilderOptions = { maxBalanceReadsPerBlock: Infinity, maxBalanceReadsPerContract: Infinity };

/**
 * Turns blocks into REST index updates: account states and keys as the block left them, the
 * (account, token) pairs its receipts touched (tokenActivity), and their FT balances read at the
 * block. Holds the balance reads the per-block caps deferred. Used by the local BlockIndexer and
 * by the gateway's UpstreamFollower, so both write the same rows from the same block.
 */
export class IndexBuilder {
  /** FT balance reads the per-block caps deferred, oldest first, keyed "contract account". */
  private readonly deferredReads = new Map<string, FtPair>();

  constructor(
    private readonly options: IndexBuilderOptions = {},
    /** Reads an earlier indexer deferred (a store that outlives it keeps them: IndexStore.pendingBalanceReads). */
    pending: readonly FtPair[] = [],
  ) {
    for (const pair of pending) this.deferredReads.set(`${pair.contractId} ${pair.accountId}`, { accountId: pair.accountId, contractId: pair.contractId });
  }

  /** The block's update; synchronous when its balance reads are. */
  update(input: IndexBlockInput): Awaitable<IndexBlockUpdate> {
    const ft = new Map<string, FtRowDraft>();
    const nft = new Map<string, { accountId: string; contractId: string }>();
    const pools = new Map<string, { accountId: string; poolId: string }>();
    // Rows the source gives with their balance (genesis) are not read again.
    const given = new Set<string>();
    for (const row of input.tokens?.ft ?? []) {
      const key = `${row.contractId} ${row.accountId}`;
      ft.set(key, { accountId: row.accountId, contractId: row.contractId, balance: row.balance });
      given.add(key);
    }
    for (const row of input.tokens?.nft ?? []) nft.set(`${row.contractId} ${row.accountId}`, row);
    for (const row of input.tokens?.pools ?? []) pools.set(`${row.poolId} ${row.accountId}`, row);
    for (const receipt of input.receipts) {
      const activity = tokenActivity(receipt);
      for (const row of activity.ft) {
        const key = `${row.contractId} ${row.accountId}`;
        given.delete(key);
        ft.set(key, { ...row, balance: null });
      }
      for (const row of activity.nft) nft.set(`${row.contractId} ${row.accountId}`, row);
      for (const row of activity.pools) pools.set(`${row.poolId} ${row.accountId}`, row);
    }
    const read = input.readFtBalances;
    const build = (retries: readonly FtRowDraft[]): IndexBlockUpdate => ({
      height: input.height,
      blockHash: input.hash,
      timestampNs: input.timestampNs,
      accountStates: input.accountStates,
      accessKeys: input.accessKeys,
      ft: [...ft.values()],
      nft: [...nft.values()],
      pools: [...pools.values()],
      balancesRead: read !== undefined,
      ...(retries.length === 0 ? {} : { ftRetries: retries }),
    });
    if (read === undefined) return build([]);
    const { rows, retries } = this.planReads(ft, given);
    const balances = read(rows);
    const fill = (answers: readonly FtBalance[]) => {
      rows.forEach((row, i) => (row.balance = answers[i] ?? null));
      return build(retries);
    };
    return balances instanceof Promise ? balances.then(fill) : fill(balances);
  }

  /**
   * Which of the block's FT pairs are read now, each (contract, account) pair once, within the
   * per-block and per-contract caps: one token emitting hundreds of events (or a slow
   * `ft_balance_of`) cannot hold the thread that serves RPC and produces blocks for long. Pairs
   * deferred by earlier blocks go first; pairs over a cap are marked deferred (the store keeps
   * their previous balance) and read at a later block. `retries` are the deferred pairs read
   * now that this block did not touch.
   */
  private planReads(ft: Map<string, FtRowDraft>, given: ReadonlySet<string>): { rows: FtRowDraft[]; retries: FtRowDraft[] } {
    const perBlock = this.options.maxBalanceReadsPerBlock ?? 32;
    const perContract = this.options.maxBalanceReadsPerContract ?? 8;
    const maxDeferred = this.options.maxDeferredBalanceReads ?? 10_000;
    const rows: FtRowDraft[] = [];
    const byContract = new Map<string, number>();
    const planned = new Set<string>();
    const tryRead = (key: string, row: FtRowDraft): boolean => {
      const count = byContract.get(row.contractId) ?? 0;
      if (rows.length >= perBlock || count >= perContract) return false;
      rows.push(row);
      planned.add(key);
      byContract.set(row.contractId, count + 1);
      return true;
    };
    const retries: FtRowDraft[] = [];
    for (const [key, pair] of this.deferredReads) {
      if (rows.length >= perBlock) break;
      const row = ft.get(key) ?? { ...pair, balance: null };
      if (!tryRead(key, row)) continue;
      this.deferredReads.delete(key);
      if (!ft.has(key)) retries.push(row);
    }
    for (const [key, row] of ft) {
      if (given.has(key) || planned.has(key) || tryRead(key, row)) continue;
      row.deferred = true;
      if (!this.deferredReads.has(key)) this.deferredReads.set(key, { accountId: row.accountId, contractId: row.contractId });
    }
    for (const key of this.deferredReads.keys()) {
      if (this.deferredReads.size <= maxDeferred) break;
      this.deferredReads.delete(key);
    }
    return { rows, retries };
  }
}
