/**
 * The REST account-data index behind a small interface, so that a shared engine (PostgreSQL,
 * Redis) can back it. Writes come one block at a time (`apply`), and a reader always sees the
 * index as of one whole block: the in-memory store applies a block synchronously; the
 * PostgreSQL store applies it in one transaction and reads at one height.
 */

/** An account's state as `/full` reports it (FastNEAR's `{b, l, s}`). */
export interface AccountStateRow {
  readonly balance: string;
  readonly locked: string;
  readonly storageBytes: number;
}

/**
 * An FT balance: the contract's decimal answer, `""` when it answered something that is not
 * a balance, or `null` when it was not read (no contract host, or the read is pending).
 */
export type FtBalance = string | null;

export interface FtRow {
  readonly contractId: string;
  readonly balance: FtBalance;
  readonly lastUpdateBlockHeight: number;
}

export interface ContractRow {
  readonly contractId: string;
  readonly lastUpdateBlockHeight: number;
}

export interface FtHolder {
  readonly accountId: string;
  readonly balance: string;
}

export type KeyPermission = "full" | "limited";

/** Everything one block changes in the index. */
export interface IndexBlockUpdate {
  readonly height: number;
  /** The block's hash (base58), which a store that outlives the process keeps to recognise its chain. */
  readonly blockHash?: string;
  readonly timestampNs: bigint;
  /** Account → its state after the block, or null when the block deleted it. */
  readonly accountStates: ReadonlyMap<string, AccountStateRow | null>;
  /** Access keys the block added, changed or deleted (permission null). */
  readonly accessKeys: readonly { readonly publicKey: string; readonly accountId: string; readonly permission: KeyPermission | null }[];
  /** (account, contract) pairs the block touched, per kind; each row's height becomes this block's. */
  readonly ft: readonly FtUpdateRow[];
  /**
   * Balances read at this block for pairs an earlier block deferred (see FtUpdateRow.deferred);
   * they set the balance only, the row's height stays that of the block that touched it.
   */
  readonly ftRetries?: readonly { readonly accountId: string; readonly contractId: string; readonly balance: FtBalance }[];
  readonly nft: readonly { readonly accountId: string; readonly contractId: string }[];
  readonly pools: readonly { readonly accountId: string; readonly poolId: string }[];
  /** True when this block's FT balances were read from the contracts. */
  readonly balancesRead: boolean;
}

/** One (account, token) pair a block touched. */
export interface FtUpdateRow {
  readonly accountId: string;
  readonly contractId: string;
  readonly balance: FtBalance;
  /**
   * The indexer's per-block read cap left this balance unread: the store keeps the previous
   * balance (null when there is none) and the indexer reads it at a later block.
   */
  readonly deferred?: boolean;
}

/** A value now (in-process store) or later (a shared engine). */
export type Awaitable<T> = T | Promise<T>;

/** Every row of one account, as of one block. */
export interface AccountRows {
  /** The block these rows reflect. */
  readonly height: number;
  readonly state: AccountStateRow | undefined;
  /** Sorted by contract id. */
  readonly ft: readonly FtRow[];
  readonly nft: readonly ContractRow[];
  /** Sorted by pool id (`contractId` is the pool). */
  readonly pools: readonly ContractRow[];
}

export interface IndexStatus {
  /** Last applied block (null before genesis is indexed). */
  readonly height: number | null;
  readonly timestampNs: bigint | null;
  /** Last block whose FT balances were read (null before any). */
  readonly balanceHeight: number | null;
}

/**
 * The read side. Each call is one read of one consistent block (it says which), so a shared
 * engine can answer it with one query at one height; the in-memory store answers at once.
 */
export interface IndexReader {
  status(): Awaitable<IndexStatus>;
  account(accountId: string): Awaitable<AccountRows>;
  /** Accounts holding the key, sorted; `fullAccessOnly` leaves out function-call keys. */
  accountsByKey(publicKey: string, fullAccessOnly: boolean): Awaitable<{ readonly height: number; readonly accountIds: readonly string[] }>;
  /** Holders with a numeric balance, by balance descending then account id descending. */
  ftTop(tokenId: string, limit: number): Awaitable<{ readonly height: number; readonly holders: readonly FtHolder[] }>;
}

/** The write side, used by the indexer alone (a single writer, so its height is known locally). */
export interface IndexStore extends IndexReader {
  /** Height of the last applied block (null before genesis is indexed). */
  readonly height: number | null;
  /**
   * Applies one block's changes atomically; blocks must come in height order. The in-memory
   * store applies at once (no promise on its path); a shared engine resolves once the block's
   * transaction committed, and the caller awaits it before applying the next block.
   */
  apply(update: IndexBlockUpdate): Awaitable<void>;
  /**
   * FT balance reads deferred by the blocks applied so far and not yet retried, oldest first:
   * a store that outlives its indexer (a data dir's) keeps them, so the next indexer reads them.
   */
  pendingBalanceReads?(): readonly { readonly accountId: string; readonly contractId: string }[];
}
