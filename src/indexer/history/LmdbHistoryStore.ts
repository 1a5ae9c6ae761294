import type { Database, RootDatabase } from "lmdb";
import { openDerivedIndexEnv } from "../derivedIndexEnv.js";
import type {
  AccountTxRow,
  AccountTxsQuery,
  BlockRow,
  BlockTxRow,
  HistoryBlockUpdate,
  HistoryStore,
  ReceiptRow,
  TransactionRecord,
} from "./HistoryStore.js";
import { checkNextHeight, flagFilter, includedHashes, rewindHeight, transferFilter, type TransferRow, type TransfersQuery } from "./HistoryStore.js";

/** Bumped when the layout below changes: an index of another format is rebuilt from the blocks. */
const FORMAT = 2;

/** A block as stored: its row, the transactions it included (tx_index order) and the receipts it executed (receipt_index order). */
interface StoredBlock {
  readonly row: BlockRow;
  readonly txHashes: readonly string[];
  readonly receiptIds: readonly string[];
  /** Keys of the transfer rows it made. */
  readonly transferKeys?: readonly TransferKey[];
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
 * in the JS heap: one named database per table, values in lmdb's msgpack. Each block is one
 * write transaction that also moves the head marker, so after a process crash the index is a
 * whole block, never half of one. Commits are not flushed (`noSync`: a flushed commit took
 * 6 ms, an unflushed one 0.1 ms), which LMDB makes safe against a process crash but not a
 * system crash; the index is derived from the chain's blocks, so an environment left open by
 * an earlier boot is thrown away and indexed again (openDerivedIndexEnv). An account's page is one
 * range scan over (account, tx_block_height, tx_index) keys; its unfiltered count one read of
 * the per-account counts kept beside them.
 */
export class LmdbHistoryStore implements HistoryStore {
  height: number | null;
  private readonly meta: Database<Head, string>;
  private readonly blockEntries: Database<StoredBlock, number>;
  private readonly heightByHash: Database<number, string>;
  private readonly txs: Database<TransactionRecord, string>;
  private readonly accounts: Database<AccountTxRow, AccountKey>;
  /** Rows per account, so a first page's unfiltered count is one read (FORMAT 2). */
  private readonly accountCounts: Database<number, string>;
  private readonly transfers: Database<TransferRow, TransferKey>;
  private readonly receipts: Database<ReceiptRow, string>;
  /** Hashes of transactions with receipts still to execute (value unused). */
  private readonly incomplete: Database<true, string>;

  private constructor(
    private readonly env: RootDatabase,
    private readonly closeEnv: () => Promise<void>,
  ) {
    this.meta = env.openDB({ name: "meta" });
    this.blockEntries = env.openDB({ name: "blocks" });
    this.heightByHash = env.openDB({ name: "block-heights" });
    this.txs = env.openDB({ name: "transactions" });
    this.accounts = env.openDB({ name: "account-txs" });
    this.accountCounts = env.openDB({ name: "account-counts" });
    this.transfers = env.openDB({ name: "account-transfers" });
    this.receipts = env.openDB({ name: "receipts" });
    this.incomplete = env.openDB({ name: "incomplete" });
    const head = this.meta.get("head");
    if (head !== undefined && head.format !== FORMAT) {
      // Written by another version of the layout: start again from the blocks.
      env.transactionSync(() => {
        for (const db of [this.meta, this.blockEntries, this.heightByHash, this.txs, this.accounts, this.accountCounts, this.transfers, this.receipts, this.incomplete]) db.clearSync();
      });
      this.height = null;
    } else this.height = head?.height ?? null;
  }

  /** Opens (or creates) the index in `dir`; an index an earlier boot left open (a system crash may have torn it) starts empty. */
  static open(dir: string): LmdbHistoryStore {
    const { env, close } = openDerivedIndexEnv(dir, 10);
    return new LmdbHistoryStore(env, close);
  }


  apply(update: HistoryBlockUpdate): void {
    const height = update.block.block_height;
    checkNextHeight(this.height, height);
    const included = includedHashes(update);
    this.env.transactionSync(() => {
      for (const record of update.transactions) {
        const hash = record.row.transaction_hash;
        this.txs.putSync(hash, record);
        if (record.row.is_completed) this.incomplete.removeSync(hash);
        else this.incomplete.putSync(hash, true);
        for (const row of record.accounts) {
          const key = accountKey(row);
          if (!this.accounts.doesExist(key)) this.addToCount(row.account_id, 1);
          this.accounts.putSync(key, row);
        }
      }
      for (const receipt of update.receipts) this.receipts.putSync(receipt.receipt_id, receipt);
      const transferKeys = (update.transfers ?? []).map((row): TransferKey => [row.account_id, paddedTimestamp(BigInt(row.block_timestamp)), row.transfer_index]);
      (update.transfers ?? []).forEach((row, i) => this.transfers.putSync(transferKeys[i]!, row));
      this.blockEntries.putSync(height, { row: update.block, txHashes: included, receiptIds: update.receipts.map((r) => r.receipt_id), transferKeys });
      this.heightByHash.putSync(update.block.block_hash, height);
      this.meta.putSync("head", { format: FORMAT, height, hash: update.block.block_hash });
    });
    this.height = height;
  }

  incompleteTransactions(): TransactionRecord[] {
    return [...this.incomplete.getKeys()].flatMap((hash) => this.transactions([hash]));
  }

  rewind(height: number): number | null {
    if (this.height === null) return null;
    const keep = rewindHeight(this.height, height, (h) =>
      (this.blockEntries.get(h)?.receiptIds ?? []).flatMap((id) => {
        const row = this.receipts.get(id);
        return row === undefined ? [] : [row.tx_block_height];
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
    const record = this.txs.get(hash);
    if (record === undefined) return;
    for (const row of record.accounts) {
      if (this.accounts.removeSync(accountKey(row))) this.addToCount(row.account_id, -1);
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

  /** Closes the environment (which flushes it) and then removes the open marker. */
  close(): Promise<void> {
    return this.closeEnv();
  }

  status(): { height: number | null } {
    return { height: this.height };
  }

  transactions(hashes: readonly string[]): TransactionRecord[] {
    return hashes.flatMap((hash) => {
      const record = this.txs.get(hash);
      return record === undefined ? [] : [record];
    });
  }

  accountTxs(query: AccountTxsQuery): { rows: AccountTxRow[]; count?: number } {
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
    for (const { value } of this.accounts.getRange(range as { start: AccountKey; end: AccountKey; reverse?: boolean })) {
      if (rows.length >= query.limit) break;
      if (matches(value)) rows.push(value);
    }
    if (!query.count) return { rows };
    const bounds = { start: [account, from] as unknown as AccountKey, end: [account, to + 1] as unknown as AccountKey };
    if (!filtered && query.fromHeight === undefined && query.toHeight === undefined) return { rows, count: this.accountCounts.get(account) ?? 0 };
    let count = 0;
    if (!filtered) for (const _ of this.accounts.getKeys(bounds)) count++;
    else for (const { value } of this.accounts.getRange(bounds)) if (matches(value)) count++;
    return { rows, count };
  }

  block(id: number | string): { row: BlockRow; txs: BlockTxRow[]; receipts: ReceiptRow[] } | undefined {
    const height = typeof id === "number" ? id : this.heightByHash.get(id);
    const stored = height === undefined ? undefined : this.blockEntries.get(height);
    if (stored === undefined) return undefined;
    return {
      row: stored.row,
      txs: this.transactions(stored.txHashes).map((record) => record.row),
      receipts: stored.receiptIds.flatMap((receiptId) => {
        const row = this.receipts.get(receiptId);
        return row === undefined ? [] : [row];
      }),
    };
  }

  blocks(query: { fromHeight?: number; toHeight?: number; desc: boolean; limit: number }): BlockRow[] {
    if (this.height === null) return [];
    const from = Math.max(query.fromHeight ?? 0, 0);
    const to = Math.min(query.toHeight ?? this.height, this.height);
    if (from > to) return [];
    const range = query.desc ? { start: to, end: from - 0.5, reverse: true, limit: query.limit } : { start: from, end: to + 0.5, limit: query.limit };
    return [...this.blockEntries.getRange(range).map(({ value }) => value.row)];
  }

  accountTransfers(query: TransfersQuery): TransferRow[] {
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
      if (matches(value)) rows.push(value);
    }
    return rows;
  }

  receipt(receiptId: string): { row: ReceiptRow; transaction: TransactionRecord | undefined } | undefined {
    const row = this.receipts.get(receiptId);
    return row === undefined ? undefined : { row, transaction: this.txs.get(row.transaction_hash) };
  }
}

function accountKey(row: AccountTxRow): AccountKey {
  return [row.account_id, row.tx_block_height, row.tx_index];
}

/** This boot of the machine (Linux); elsewhere a constant, so only a process crash is assumed. */
