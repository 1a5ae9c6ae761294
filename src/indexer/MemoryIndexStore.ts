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

/** The in-process index: maps keyed like FastNEAR's Redis hashes (ft:/nf:/st:/pk:/b:/accounts). */
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

  apply(update: IndexBlockUpdate): void {
    if (this.height !== null && update.height <= this.height) {
      throw new RangeError(`index is at block ${this.height}; cannot apply block ${update.height}`);
    }
    for (const [accountId, state] of update.accountStates) {
      if (state === null) this.accounts.delete(accountId);
      else this.accounts.set(accountId, state);
    }
    for (const { publicKey, accountId, permission } of update.accessKeys) {
      let holders = this.keys.get(publicKey);
      if (permission === null) {
        holders?.delete(accountId);
        if (holders?.size === 0) this.keys.delete(publicKey);
        continue;
      }
      if (holders === undefined) this.keys.set(publicKey, (holders = new Map()));
      holders.set(accountId, permission);
    }
    const touch = (table: Map<string, Map<string, number>>, accountId: string, contractId: string) => {
      let rows = table.get(accountId);
      if (rows === undefined) table.set(accountId, (rows = new Map()));
      rows.set(contractId, update.height);
    };
    const setBalance = (contractId: string, accountId: string, balance: FtBalance, keepOld: boolean) => {
      let holders = this.balances.get(contractId);
      if (holders === undefined) this.balances.set(contractId, (holders = new Map()));
      if (!keepOld || !holders.has(accountId)) holders.set(accountId, balance);
      this.sortedHolders.delete(contractId);
    };
    for (const row of update.ft) {
      touch(this.ft, row.accountId, row.contractId);
      setBalance(row.contractId, row.accountId, row.deferred === true ? null : row.balance, row.deferred === true);
    }
    for (const row of update.ftRetries ?? []) setBalance(row.contractId, row.accountId, row.balance, false);
    for (const row of update.nft) touch(this.nft, row.accountId, row.contractId);
    for (const row of update.pools) touch(this.pools, row.accountId, row.poolId);
    this.height = update.height;
    this.timestampNs = update.timestampNs;
    if (update.balancesRead) this.balanceHeight = update.height;
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
