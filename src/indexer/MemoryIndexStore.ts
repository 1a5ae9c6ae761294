import type {
  AccountRows,
  AccountStateRow,
  ContractRow,
  FtBalance,
  FtHolder,
  FtRow,
  IndexBlockUpdate,
  IndexStatus,
  IndexStore,
  KeyPermission,
} from "./IndexStore.js";
import { compareStrings, contractRows, sortFtHolders } from "./indexRowOrder.js";

const deferredKey = (row: { readonly accountId: string; readonly contractId: string }) => `${row.contractId}\u0000${row.accountId}`;

/** What one block changed, to put back when a revert undoes it: restores in the order written, and the head before. */
interface Undo {
  readonly height: number;
  readonly blockHash: string;
  readonly before: { readonly timestampNs: bigint | null; readonly balanceHeight: number | null };
  readonly restores: (() => void)[];
}

/**
 * The in-process index: maps keyed like FastNEAR's Redis hashes (ft:/nf:/st:/pk:/b:/accounts).
 * Every write keeps how to put the row back, per block, so a revert rewinds the index by the
 * blocks it undoes (as LmdbIndexStore does with its undo entries) instead of rebuilding it.
 */
export class MemoryIndexStore implements IndexStore {
  height: number | null = null;
  timestampNs: bigint | null = null;
  balanceHeight: number | null = null;
  private readonly accounts = new Map<string, AccountStateRow>();
  private readonly ft = new Map<string, Map<string, number>>();
  private readonly nft = new Map<string, Map<string, number>>();
  private readonly pools = new Map<string, Map<string, number>>();
  /** token → account → balance */
  private readonly balances = new Map<string, Map<string, FtBalance>>();
  /** token → its numeric holders sorted as topHolders answers, until a block changes the token */
  private readonly sortedHolders = new Map<string, FtHolder[]>();
  /** public key → account → permission */
  private readonly keys = new Map<string, Map<string, KeyPermission>>();
  /** Pairs whose balance read a block deferred, until a block reads it (kept for the next indexer over this store). */
  private readonly deferred = new Map<string, { readonly accountId: string; readonly contractId: string; readonly height: number }>();
  /** One entry per applied block, oldest first. */
  private readonly undo: Undo[] = [];

  apply(update: IndexBlockUpdate): void {
    if (this.height !== null && update.height <= this.height) {
      throw new RangeError(`index is at block ${this.height}; cannot apply block ${update.height}`);
    }
    const restores: (() => void)[] = [];
    // Every write goes through `put`, which first keeps how to put the entry back.
    const put = <K, V>(map: Map<K, V>, key: K, value: V | undefined) => {
      const before = map.get(key); // values are never undefined: absent is deleted
      restores.push(before === undefined ? () => map.delete(key) : () => map.set(key, before));
      if (value === undefined) map.delete(key);
      else map.set(key, value);
    };
    const inner = <V>(table: Map<string, Map<string, V>>, key: string): Map<string, V> => {
      let rows = table.get(key);
      if (rows === undefined) put(table, key, (rows = new Map()));
      return rows;
    };
    for (const [accountId, state] of update.accountStates) put(this.accounts, accountId, state ?? undefined);
    for (const { publicKey, accountId, permission } of update.accessKeys) {
      const holders = this.keys.get(publicKey);
      if (permission === null) {
        if (holders === undefined) continue;
        put(holders, accountId, undefined);
        if (holders.size === 0) put(this.keys, publicKey, undefined);
        continue;
      }
      put(inner(this.keys, publicKey), accountId, permission);
    }
    const touch = (table: Map<string, Map<string, number>>, accountId: string, contractId: string) => put(inner(table, accountId), contractId, update.height);
    const setBalance = (contractId: string, accountId: string, balance: FtBalance, keepOld: boolean) => {
      const holders = inner(this.balances, contractId);
      if (!keepOld || !holders.has(accountId)) put(holders, accountId, balance);
      this.sortedHolders.delete(contractId);
    };
    for (const row of update.ft) {
      touch(this.ft, row.accountId, row.contractId);
      setBalance(row.contractId, row.accountId, row.deferred === true ? null : row.balance, row.deferred === true);
      const key = deferredKey(row);
      if (row.deferred !== true) put(this.deferred, key, undefined);
      else if (!this.deferred.has(key)) put(this.deferred, key, { accountId: row.accountId, contractId: row.contractId, height: update.height });
    }
    for (const row of update.ftRetries ?? []) {
      setBalance(row.contractId, row.accountId, row.balance, false);
      put(this.deferred, deferredKey(row), undefined);
    }
    for (const row of update.nft) touch(this.nft, row.accountId, row.contractId);
    for (const row of update.pools) touch(this.pools, row.accountId, row.poolId);
    this.undo.push({ height: update.height, blockHash: update.blockHash ?? "", before: { timestampNs: this.timestampNs, balanceHeight: this.balanceHeight }, restores });
    this.height = update.height;
    this.timestampNs = update.timestampNs;
    if (update.balancesRead) this.balanceHeight = update.height;
  }

  /** Forgets every row: the next `apply` is genesis again. */
  clear(): void {
    for (const map of [this.accounts, this.ft, this.nft, this.pools, this.balances, this.sortedHolders, this.keys, this.deferred]) map.clear();
    this.undo.length = 0;
    this.height = this.timestampNs = this.balanceHeight = null;
  }

  /**
   * Undoes blocks from the head down until the head is a block the chain has (`chainHash(height)`
   * is its hash there): a revert costs the blocks it undid. False, with nothing changed, when
   * no applied block is left on the chain (genesis itself replaced): the caller clears the index.
   */
  rewindToChain(chainHash: (height: number) => string | undefined): boolean {
    let kept = this.undo.length;
    while (kept > 0 && chainHash(this.undo[kept - 1]?.height ?? -1) !== this.undo[kept - 1]?.blockHash) kept--;
    if (kept === 0) return this.undo.length === 0;
    for (const entry of this.undo.splice(kept).reverse()) {
      for (let i = entry.restores.length - 1; i >= 0; i--) entry.restores[i]?.();
      this.timestampNs = entry.before.timestampNs;
      this.balanceHeight = entry.before.balanceHeight;
    }
    this.height = this.undo[kept - 1]?.height ?? null;
    this.sortedHolders.clear();
    return true;
  }

  pendingBalanceReads(): { accountId: string; contractId: string }[] {
    // Oldest first, then by pair (as the data dir's store lists them), whatever order a rewind restored them in.
    return [...this.deferred.entries()]
      .sort(([keyA, a], [keyB, b]) => a.height - b.height || compareStrings(keyA, keyB))
      .map(([, { accountId, contractId }]) => ({ accountId, contractId }));
  }

  status(): IndexStatus {
    return { height: this.height, timestampNs: this.timestampNs, balanceHeight: this.balanceHeight };
  }

  account(accountId: string): AccountRows {
    return {
      height: this.appliedHeight(),
      state: this.accountState(accountId),
      ft: this.ftRows(accountId),
      nft: this.nftRows(accountId),
      pools: this.poolRows(accountId),
    };
  }

  accountsByKey(publicKey: string, fullAccessOnly: boolean): { height: number; accountIds: string[] } {
    return { height: this.appliedHeight(), accountIds: this.keyHolders(publicKey, fullAccessOnly) };
  }

  ftTop(tokenId: string, limit: number): { height: number; holders: FtHolder[] } {
    return { height: this.appliedHeight(), holders: this.topHolders(tokenId, limit) };
  }

  private appliedHeight(): number {
    if (this.height === null) throw new Error("the index has not applied genesis yet");
    return this.height;
  }

  accountState(accountId: string): AccountStateRow | undefined {
    return this.accounts.get(accountId);
  }

  ftRows(accountId: string): FtRow[] {
    return [...(this.ft.get(accountId) ?? [])]
      .map(([contractId, height]) => ({
        contractId,
        balance: this.balances.get(contractId)?.get(accountId) ?? null,
        lastUpdateBlockHeight: height,
      }))
      .sort((a, b) => compareStrings(a.contractId, b.contractId));
  }

  nftRows(accountId: string): ContractRow[] {
    return contractRows(this.nft.get(accountId) ?? []);
  }

  poolRows(accountId: string): ContractRow[] {
    return contractRows(this.pools.get(accountId) ?? []);
  }

  keyHolders(publicKey: string, fullAccessOnly: boolean): string[] {
    return [...(this.keys.get(publicKey) ?? [])]
      .filter(([, permission]) => !fullAccessOnly || permission === "full")
      .map(([accountId]) => accountId)
      .sort();
  }

  /** Sorted once per token and block that changed it; requests in between slice the cached order. */
  topHolders(tokenId: string, limit: number): FtHolder[] {
    let sorted = this.sortedHolders.get(tokenId);
    if (sorted === undefined) this.sortedHolders.set(tokenId, (sorted = sortFtHolders(this.balances.get(tokenId) ?? [])));
    return sorted.slice(0, limit);
  }
}
