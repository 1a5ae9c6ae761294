import { open, type Database, type RootDatabase } from "lmdb";
import { openDerivedIndexEnv } from "../derivedIndexEnv.js";
import { IndexUnavailableError } from "../IndexUnavailableError.js";
import type {
  AccountTxRow,
  AccountTxsQuery,
  BlockRow,
  BlockTxRow,
  HistoryBlockUpdate,
  HistoryStore,
  InFlightReceipts,
  ReceiptRow,
  TransactionRecord,
} from "./HistoryStore.js";
import {
  checkNextHeight,
  flagFilter,
  includedHashes,
  rewindHeight,
  transferFilter,
  type TransactionDetails,
  type TransferRow,
  type TransfersQuery,
} from "./HistoryStore.js";
import {
  fromStoredAccountRow,
  fromStoredReceiptRow,
  fromStoredTransferRow,
  roleBits,
  toStoredAccountRow,
  toStoredReceiptRow,
  toStoredTransferRow,
  type StoredAccountRow,
  type StoredReceiptRow,
  type StoredTransferRow,
} from "./storedRows.js";

const MAX_DBS = 10;

/** Bumped when the layout below changes: an index of another format is rebuilt from the blocks. */
const FORMAT = 5;

/** A block as stored: its row, the transactions it included (tx_index order) and the receipts it executed (receipt_index order). */
interface StoredBlock {
  readonly row: BlockRow;
  readonly txHashes: readonly string[];
  readonly receiptIds: readonly string[];
  /** Keys of the transfer rows it made. */
  readonly transferKeys?: readonly TransferKey[];
}

/**
 * A transaction as stored (since FORMAT 3): each account row as its account and role flags (bit i
 * set for ACCOUNT_ROLE_FLAGS[i]), the rest of the row being the transaction's own.
 */
interface StoredTransaction {
  readonly row: BlockTxRow;
  readonly details: TransactionDetails;
  readonly accounts: readonly (readonly [accountId: string, flags: number])[];
  readonly inFlight?: InFlightReceipts;
}

function toStored(record: TransactionRecord): StoredTransaction {
  const stored = { row: record.row, details: record.details, accounts: record.accounts.map((row) => [row.account_id, roleBits(row)] as const) };
  return record.inFlight === undefined ? stored : { ...stored, inFlight: record.inFlight };
}

function fromStored(stored: StoredTransaction): TransactionRecord {
  const { row } = stored;
  const accounts = stored.accounts.map(([accountId, bits]) =>
    fromStoredAccountRow(accountId, row.tx_block_height, row.tx_index, [row.transaction_hash, row.tx_block_timestamp, bits]),
  );
  return stored.inFlight === undefined ? { row, details: stored.details, accounts } : { row, details: stored.details, accounts, inFlight: stored.inFlight };
}

/** The marker written with every block, in the same transaction: what the index holds. */
interface Head {
  readonly format: number;
  readonly height: number;
  readonly hash: string;
}

type AccountKey = [account: string, height: number, index: number];
/** The timestamp as 20 zero-padded digits, so that string order is numeric order (ns exceed 2^53). */
type TransferKey = [account: string, timestamp: string, index: number];
const TIMESTAMP_DIGITS = 20;
const paddedTimestamp = (ns: bigint) => ns.toString().padStart(TIMESTAMP_DIGITS, "0");

/**
 * The history index in its own LMDB environment (`<data-dir>/history`), so nothing of it stays
 * in the JS heap: one named database per table, records as JSON (lmdb's msgpack cost a few
 * times more to write these nested records) and rows as JSON arrays (storedRows.ts). Each batch of blocks is one write
 * transaction that also moves the head marker, so after a process crash the index is whole
 * blocks, never half of one. Commits are not flushed (`noSync`: a flushed commit took
 * 6 ms, an unflushed one 0.1 ms), which LMDB makes safe against a process crash but not a
 * system crash; the index is derived from the chain's blocks, so an environment left open by
 * an earlier boot is thrown away and indexed again (openDerivedIndexEnv). An account's page is one
 * range scan over (account, tx_block_height, tx_index) keys; its unfiltered count one read of
 * the per-account counts kept beside them.
 */
export class LmdbHistoryStore implements HistoryStore {
  height: number | null;
  private closed = false;
  /** Why reads answer IndexUnavailableError (a reader whose writer failed), when they do. */
  private unavailable: string | undefined;
  private readonly meta: Database<Head, string>;
  private readonly blockEntries: Database<StoredBlock, number>;
  private readonly heightByHash: Database<number, string>;
  private readonly txs: Database<StoredTransaction, string>;
  private readonly accounts: Database<StoredAccountRow, AccountKey>;
  /** Rows per account, so a first page's unfiltered count is one read (FORMAT 2). */
  private readonly accountCounts: Database<number, string>;
  private readonly transfers: Database<StoredTransferRow, TransferKey>;
  private readonly receipts: Database<StoredReceiptRow, string>;
  /** Hashes of transactions with receipts still to execute (value unused). */
  private readonly incomplete: Database<true, string>;

  private constructor(
    private readonly env: RootDatabase,
    private readonly closeEnv: () => Promise<void>,
    /** False for a reader of an index another thread writes (openReader). */
    private readonly writer = true,
  ) {
    this.meta = env.openDB({ name: "meta" });
    this.blockEntries = env.openDB({ name: "blocks", encoding: "json" });
    this.heightByHash = env.openDB({ name: "block-heights" });
    this.txs = env.openDB({ name: "transactions", encoding: "json" });
    this.accounts = env.openDB({ name: "account-txs", encoding: "json" });
    this.accountCounts = env.openDB({ name: "account-counts" });
    this.transfers = env.openDB({ name: "account-transfers", encoding: "json" });
    this.receipts = env.openDB({ name: "receipts", encoding: "json" });
    this.incomplete = env.openDB({ name: "incomplete" });
    const head = this.meta.get("head");
    if (head !== undefined && head.format !== FORMAT && writer) {
      // Written by another version of the layout: start again from the blocks.
      env.transactionSync(() => {
        for (const db of [this.meta, this.blockEntries, this.heightByHash, this.txs, this.accounts, this.accountCounts, this.transfers, this.receipts, this.incomplete]) db.clearSync();
      });
      this.height = null;
    } else this.height = head?.height ?? null;
  }

  /** Opens (or creates) the index in `dir`; an index an earlier boot left open (a system crash may have torn it) starts empty. */
  static open(dir: string): LmdbHistoryStore {
    const { env, close } = openDerivedIndexEnv(dir, MAX_DBS);
    return new LmdbHistoryStore(env, close);
  }

  /**
   * The index in `dir` as another thread of this process writes it (the history worker, which
   * opened it first): reads see each batch the writer committed. Its height is what the writer
   * last reported (`followWriter`), so a read never runs ahead of what the indexer announced.
   */
  static openReader(dir: string): LmdbHistoryStore {
    const env = open({ path: dir, noSubdir: false, maxDbs: MAX_DBS, compression: false, noSync: true });
    return new LmdbHistoryStore(env, () => env.close(), false);
  }

  /** A reader: the height the writer reports, or why it stopped (reads then answer IndexUnavailableError). */
  followWriter(state: { height: number | null } | { failed: string }): void {
    if ("failed" in state) this.unavailable = state.failed;
    else this.height = state.height;
    // Reads in this turn see what the writer committed (lmdb renews its read snapshot on a timer otherwise).
    this.env.resetReadTxn();
  }


  apply(update: HistoryBlockUpdate): void {
    this.applyBlocks([update]);
  }

  /**
   * The blocks in one write transaction: a transaction several of them advance is written once,
   * as the last one left it (its account rows only grow, so the last record's cover the
   * others'), and each account's row count moves once. A transaction one of these blocks
   * included has no rows or pending mark yet, so none is looked up or removed.
   */
  applyBlocks(updates: readonly HistoryBlockUpdate[]): void {
    this.checkWriter();
    const last = updates.at(-1);
    if (last === undefined) return;
    let before = this.height;
    for (const update of updates) {
      checkNextHeight(before, update.block.block_height);
      before = update.block.block_height;
    }
    const firstHeight = updates[0]?.block.block_height ?? last.block.block_height;
    const latest = new Map<string, TransactionRecord>();
    for (const update of updates) for (const record of update.transactions) latest.set(record.row.transaction_hash, record);
    this.env.transactionSync(() => {
      const newRows = new Map<string, number>();
      for (const [hash, record] of latest) {
        const isNew = record.row.tx_block_height >= firstHeight;
        this.txs.putSync(hash, toStored(record));
        if (!record.row.is_completed) this.incomplete.putSync(hash, true);
        else if (!isNew) this.incomplete.removeSync(hash);
        for (const row of record.accounts) {
          const key = accountKey(row);
          if (isNew || !this.accounts.doesExist(key)) newRows.set(row.account_id, (newRows.get(row.account_id) ?? 0) + 1);
          this.accounts.putSync(key, toStoredAccountRow(row));
        }
      }
      for (const [accountId, added] of newRows) this.addToCount(accountId, added);
      for (const update of updates) this.putBlock(update);
      this.meta.putSync("head", { format: FORMAT, height: last.block.block_height, hash: last.block.block_hash });
    });
    this.height = last.block.block_height;
  }

  /** Inside a write transaction: a block's entry, its receipt rows and its transfer rows. */
  private putBlock(update: HistoryBlockUpdate): void {
    const height = update.block.block_height;
    for (const receipt of update.receipts) this.receipts.putSync(receipt.receipt_id, toStoredReceiptRow(receipt));
    const transferKeys = (update.transfers ?? []).map((row): TransferKey => {
      const key: TransferKey = [row.account_id, paddedTimestamp(BigInt(row.block_timestamp)), row.transfer_index];
      this.transfers.putSync(key, toStoredTransferRow(row));
      return key;
    });
    this.blockEntries.putSync(height, { row: update.block, txHashes: includedHashes(update), receiptIds: update.receipts.map((r) => r.receipt_id), transferKeys });
    this.heightByHash.putSync(update.block.block_hash, height);
  }

  incompleteTransactions(): TransactionRecord[] {
    return [...this.incomplete.getKeys()].flatMap((hash) => this.transactions([hash]));
  }

  rewind(height: number): number | null {
    this.checkWriter();
    if (this.height === null) return null;
    const keep = rewindHeight(this.height, height, (h) =>
      (this.blockEntries.get(h)?.receiptIds ?? []).flatMap((id) => {
        const stored = this.receipts.get(id);
        return stored === undefined ? [] : [fromStoredReceiptRow(stored).tx_block_height];
      }),
    );
    const from = this.height;
    let kept: StoredBlock | undefined;
    this.env.transactionSync(() => {
      for (let h = from; h > keep; h--) {
        const stored = this.blockEntries.get(h);
        if (stored === undefined) continue;
        for (const hash of stored.txHashes) this.forgetTransaction(hash);
        for (const id of stored.receiptIds) this.receipts.removeSync(id);
        for (const key of stored.transferKeys ?? []) this.transfers.removeSync(key);
        this.blockEntries.removeSync(h);
        this.heightByHash.removeSync(stored.row.block_hash);
      }
      kept = this.blockEntries.get(keep);
      if (kept === undefined) this.meta.removeSync("head");
      else this.meta.putSync("head", { format: FORMAT, height: keep, hash: kept.row.block_hash });
    });
    this.height = kept === undefined ? null : keep;
    return this.height;
  }

  /** Inside a write transaction: a transaction's record, account rows and pending mark. */
  private forgetTransaction(hash: string): void {
    const stored = this.txs.get(hash);
    if (stored === undefined) return;
    for (const [accountId] of stored.accounts) {
      if (this.accounts.removeSync([accountId, stored.row.tx_block_height, stored.row.tx_index])) this.addToCount(accountId, -1);
    }
    this.txs.removeSync(hash);
    this.incomplete.removeSync(hash);
  }

  /** Inside a write transaction: moves an account's row count. */
  private addToCount(accountId: string, delta: number): void {
    const count = (this.accountCounts.get(accountId) ?? 0) + delta;
    if (count > 0) this.accountCounts.putSync(accountId, count);
    else this.accountCounts.removeSync(accountId);
  }

  /** A closed store (a reset or a stop under way) is unavailable, not a driver error. */
  private checkOpen(): void {
    if (this.closed) throw new IndexUnavailableError("the history index is closed (the chain is being reset or the server is stopping)");
    if (this.unavailable !== undefined) throw new IndexUnavailableError(`the history index stopped: ${this.unavailable}`);
  }

  private checkWriter(): void {
    if (!this.writer) throw new Error("this history store is a reader: another thread writes the index");
  }

  /** Flushes and closes the environment; reads after it answer IndexUnavailableError (`/v0` says 503). */
  close(): Promise<void> {
    this.closed = true;
    return this.closeEnv();
  }

  status(): { height: number | null } {
    return { height: this.height };
  }

  transactions(hashes: readonly string[]): TransactionRecord[] {
    this.checkOpen();
    return hashes.flatMap((hash) => {
      const stored = this.txs.get(hash);
      return stored === undefined ? [] : [fromStored(stored)];
    });
  }

  accountTxs(query: AccountTxsQuery): { rows: AccountTxRow[]; count?: number } {
    this.checkOpen();
    const account = query.accountId;
    const from = query.fromHeight ?? 0;
    const to = query.toHeight ?? Number.MAX_SAFE_INTEGER;
    const filtered = Object.keys(query.flags).length > 0;
    const matches = flagFilter(query.flags);
    const after = query.after;
    // Keys are (account, height, index): `[account, h]` sorts before every key of height h.
    const range = query.desc
      ? {
          start: after === undefined ? [account, to, Number.MAX_SAFE_INTEGER] : [account, after.height, after.index - 0.5],
          end: [account, from],
          reverse: true,
        }
      : { start: after === undefined ? [account, from] : [account, after.height, after.index + 0.5], end: [account, to + 1] };
    const rows: AccountTxRow[] = [];
    for (const { key, value } of this.accounts.getRange(range as { start: AccountKey; end: AccountKey; reverse?: boolean })) {
      if (rows.length >= query.limit) break;
      const row = fromStoredAccountRow(key[0], key[1], key[2], value);
      if (matches(row)) rows.push(row);
    }
    if (!query.count) return { rows };
    const bounds = { start: [account, from] as unknown as AccountKey, end: [account, to + 1] as unknown as AccountKey };
    if (!filtered && query.fromHeight === undefined && query.toHeight === undefined) return { rows, count: this.accountCounts.get(account) ?? 0 };
    let count = 0;
    if (!filtered) for (const _ of this.accounts.getKeys(bounds)) count++;
    else for (const { key, value } of this.accounts.getRange(bounds)) if (matches(fromStoredAccountRow(key[0], key[1], key[2], value))) count++;
    return { rows, count };
  }

  block(id: number | string): { row: BlockRow; txs: BlockTxRow[]; receipts: ReceiptRow[] } | undefined {
    this.checkOpen();
    const height = typeof id === "number" ? id : this.heightByHash.get(id);
    const stored = height === undefined ? undefined : this.blockEntries.get(height);
    if (stored === undefined) return undefined;
    return {
      row: stored.row,
      txs: this.transactions(stored.txHashes).map((record) => record.row),
      receipts: stored.receiptIds.flatMap((receiptId) => {
        const row = this.receipts.get(receiptId);
        return row === undefined ? [] : [fromStoredReceiptRow(row)];
      }),
    };
  }

  blocks(query: { fromHeight?: number; toHeight?: number; desc: boolean; limit: number }): BlockRow[] {
    this.checkOpen();
    if (this.height === null) return [];
    const from = Math.max(query.fromHeight ?? 0, 0);
    const to = Math.min(query.toHeight ?? this.height, this.height);
    if (from > to) return [];
    const range = query.desc ? { start: to, end: from - 0.5, reverse: true, limit: query.limit } : { start: from, end: to + 0.5, limit: query.limit };
    return [...this.blockEntries.getRange(range).map(({ value }) => value.row)];
  }

  accountTransfers(query: TransfersQuery): TransferRow[] {
    this.checkOpen();
    const account = query.accountId;
    const from = paddedTimestamp(query.fromTimestamp ?? 0n);
    const to = query.toTimestamp === undefined ? "9".repeat(TIMESTAMP_DIGITS) + "9" : paddedTimestamp(query.toTimestamp);
    const after = query.after === undefined ? undefined : { timestamp: paddedTimestamp(query.after.timestamp), index: query.after.index };
    // `[account, t]` sorts before every key of timestamp t: `to` is exclusive, `from` inclusive.
    const range = query.desc
      ? { start: after === undefined ? [account, to] : [account, after.timestamp, after.index - 0.5], end: [account, from], reverse: true }
      : { start: after === undefined ? [account, from] : [account, after.timestamp, after.index + 0.5], end: [account, to] };
    const matches = transferFilter(query);
    const rows: TransferRow[] = [];
    for (const { key, value } of this.transfers.getRange(range as unknown as { start: TransferKey; end: TransferKey; reverse?: boolean })) {
      if (rows.length >= query.limit) break;
      // A desc range starting at [account, after...] may not pass `to`: keys stay below it anyway.
      if (key[1] >= to || key[1] < from) continue;
      const row = fromStoredTransferRow(value);
      if (matches(row)) rows.push(row);
    }
    return rows;
  }

  receipt(receiptId: string): { row: ReceiptRow; transaction: TransactionRecord | undefined } | undefined {
    this.checkOpen();
    const stored = this.receipts.get(receiptId);
    if (stored === undefined) return undefined;
    const row = fromStoredReceiptRow(stored);
    const transaction = this.txs.get(row.transaction_hash);
    return { row, transaction: transaction === undefined ? undefined : fromStored(transaction) };
  }
}

function accountKey(row: AccountTxRow): AccountKey {
  return [row.account_id, row.tx_block_height, row.tx_index];
}

/** This boot of the machine (Linux); elsewhere a constant, so only a process crash is assumed. */
