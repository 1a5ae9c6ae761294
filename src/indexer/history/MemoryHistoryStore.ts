import type {
  AccountTxRow,
  AccountTxsQuery,
  BlockRow,
  BlockTxRow,
  HistoryBlockUpdate,
  HistoryStore,
  ReceiptRow,
  TransactionRecord,
  TxPosition,
} from "./HistoryStore.js";
import { checkNextHeight, compareTransfers, flagFilter, includedHashes, rewindHeight, transferFilter, type TransferRow, type TransfersQuery } from "./HistoryStore.js";

interface StoredBlock {
  readonly row: BlockRow;
  /** Hashes of the transactions the block included, in tx_index order. */
  readonly txHashes: readonly string[];
  readonly receipts: readonly ReceiptRow[];
  readonly transfers: readonly TransferRow[];
}

/** Orders positions ascending: by height, then index. */
function compare(a: TxPosition, b: TxPosition): number {
  return a.height - b.height || a.index - b.index;
}

export interface MemoryHistoryStoreOptions {
  /**
   * The row of a chain block (by height or hash) that included no transaction and executed no
   * receipt: such blocks are then not kept, their rows are derived on each read, so an idle
   * chain adds nothing per block to the heap. Without it every block's row is kept.
   */
  readonly idleBlockRow?: (id: number | string) => BlockRow | undefined;
}

/**
 * The history index in memory (`--ephemeral`): transactions by hash, blocks by height and
 * hash, receipts by id, and per account its transactions sorted by position, so a page is a
 * binary search then a scan.
 */
export class MemoryHistoryStore implements HistoryStore {
  height: number | null = null;
  /** The first block applied (genesis): a rewind below it empties the store. */
  private first: number | undefined;
  private readonly txs = new Map<string, TransactionRecord>();
  private readonly blocksByHeight = new Map<number, StoredBlock>();
  private readonly heightByHash = new Map<string, number>();
  private readonly receipts = new Map<string, ReceiptRow>();
  /** account → its rows sorted by (tx_block_height, tx_index) ascending. */
  private readonly byAccount = new Map<string, AccountTxRow[]>();
  /** Hashes of transactions with receipts still to execute. */
  private readonly incomplete = new Set<string>();
  /** account → its transfer rows sorted by (block_timestamp, transfer_index). */
  private readonly transfersByAccount = new Map<string, TransferRow[]>();

  constructor(private readonly options: MemoryHistoryStoreOptions = {}) {}

  applyBlocks(updates: readonly HistoryBlockUpdate[]): void {
    for (const update of updates) this.apply(update);
  }

  apply(update: HistoryBlockUpdate): void {
    const height = update.block.block_height;
    checkNextHeight(this.height, height);
    for (const record of update.transactions) {
      const hash = record.row.transaction_hash;
      this.txs.set(hash, record);
      if (record.row.is_completed) this.incomplete.delete(hash);
      else this.incomplete.add(hash);
      for (const row of record.accounts) this.putAccountRow(row);
    }
    for (const receipt of update.receipts) this.receipts.set(receipt.receipt_id, receipt);
    const idle = update.transactions.length === 0 && update.receipts.length === 0 && update.block.num_transactions === 0 && update.block.num_receipts === 0;
    if (!idle || this.options.idleBlockRow === undefined) {
      this.blocksByHeight.set(height, { row: update.block, txHashes: includedHashes(update), receipts: update.receipts, transfers: update.transfers ?? [] });
      this.heightByHash.set(update.block.block_hash, height);
    }
    for (const row of update.transfers ?? []) {
      let rows = this.transfersByAccount.get(row.account_id);
      if (rows === undefined) this.transfersByAccount.set(row.account_id, (rows = []));
      rows.splice(transferBound(rows, transferPositionOf(row), false), 0, row);
    }
    this.first ??= height;
    this.height = height;
  }

  /** Inserts or replaces an account's row at its transaction's position. */
  private putAccountRow(row: AccountTxRow): void {
    let rows = this.byAccount.get(row.account_id);
    if (rows === undefined) this.byAccount.set(row.account_id, (rows = []));
    const position = { height: row.tx_block_height, index: row.tx_index };
    const at = lowerBound(rows, position);
    const existing = rows[at];
    if (existing !== undefined && compare(positionOf(existing), position) === 0) rows[at] = row;
    else rows.splice(at, 0, row);
  }

  incompleteTransactions(): TransactionRecord[] {
    return [...this.incomplete].flatMap((hash) => this.txs.get(hash) ?? []);
  }

  rewind(height: number): number | null {
    if (this.height === null) return null;
    const keep = rewindHeight(this.height, height, (h) => (this.blocksByHeight.get(h)?.receipts ?? []).map((r) => r.tx_block_height));
    for (let h = this.height; h > keep; h--) {
      const stored = this.blocksByHeight.get(h);
      if (stored === undefined) continue;
      for (const hash of stored.txHashes) this.forgetTransaction(hash);
      for (const receipt of stored.receipts) this.receipts.delete(receipt.receipt_id);
      for (const row of stored.transfers) {
        const rows = this.transfersByAccount.get(row.account_id);
        if (rows === undefined) continue;
        const at = transferBound(rows, transferPositionOf(row), false);
        if (rows[at] === row) rows.splice(at, 1);
        if (rows.length === 0) this.transfersByAccount.delete(row.account_id);
      }
      this.blocksByHeight.delete(h);
      this.heightByHash.delete(stored.row.block_hash);
    }
    this.height = this.first !== undefined && keep >= this.first ? keep : null;
    if (this.height === null) this.first = undefined;
    return this.height;
  }

  close(): void {}

  private forgetTransaction(hash: string): void {
    const record = this.txs.get(hash);
    if (record === undefined) return;
    for (const row of record.accounts) {
      const rows = this.byAccount.get(row.account_id);
      if (rows === undefined) continue;
      const at = lowerBound(rows, positionOf(row));
      if (rows[at]?.transaction_hash === hash) rows.splice(at, 1);
      if (rows.length === 0) this.byAccount.delete(row.account_id);
    }
    this.txs.delete(hash);
    this.incomplete.delete(hash);
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
    const all = this.byAccount.get(query.accountId) ?? [];
    const from = query.fromHeight ?? 0;
    const to = query.toHeight ?? Number.MAX_SAFE_INTEGER;
    const matches = flagFilter(query.flags);
    // The slice of rows within the height bounds.
    let start = lowerBound(all, { height: from, index: 0 });
    let end = lowerBound(all, { height: to + 1, index: 0 });
    if (query.after !== undefined) {
      if (query.desc) end = Math.min(end, lowerBound(all, query.after));
      else start = Math.max(start, upperBound(all, query.after));
    }
    const rows: AccountTxRow[] = [];
    const pushIf = (row: AccountTxRow | undefined) => {
      if (row !== undefined && matches(row)) rows.push(row);
    };
    if (query.desc) {
      for (let i = end - 1; i >= start && rows.length < query.limit; i--) pushIf(all[i]);
    } else {
      for (let i = start; i < end && rows.length < query.limit; i++) pushIf(all[i]);
    }
    if (!query.count) return { rows };
    const first = lowerBound(all, { height: from, index: 0 });
    const last = lowerBound(all, { height: to + 1, index: 0 });
    let count = 0;
    for (let i = first; i < last; i++) {
      const row = all[i];
      if (row !== undefined && matches(row)) count++;
    }
    return { rows, count };
  }

  block(id: number | string): { row: BlockRow; txs: BlockTxRow[]; receipts: readonly ReceiptRow[] } | undefined {
    const height = typeof id === "number" ? id : this.heightByHash.get(id);
    const stored = height === undefined ? undefined : this.blocksByHeight.get(height);
    if (stored !== undefined) return { row: stored.row, txs: stored.txHashes.map((hash) => this.txs.get(hash)!.row), receipts: stored.receipts };
    const idle = this.idleRow(id);
    return idle === undefined ? undefined : { row: idle, txs: [], receipts: [] };
  }

  /** The derived row of an indexed block the store does not keep (see MemoryHistoryStoreOptions). */
  private idleRow(id: number | string): BlockRow | undefined {
    if (this.options.idleBlockRow === undefined || this.height === null) return undefined;
    const row = this.options.idleBlockRow(id);
    return row !== undefined && row.block_height <= this.height && row.block_height >= this.first! ? row : undefined;
  }

  blocks(query: { fromHeight?: number; toHeight?: number; desc: boolean; limit: number }): BlockRow[] {
    if (this.height === null) return [];
    const from = Math.max(query.fromHeight ?? 0, 0);
    const to = Math.min(query.toHeight ?? this.height, this.height);
    const rows: BlockRow[] = [];
    const push = (h: number) => {
      const row = this.blocksByHeight.get(h)?.row ?? this.idleRow(h);
      if (row !== undefined) rows.push(row);
    };
    if (query.desc) for (let h = to; h >= from && rows.length < query.limit; h--) push(h);
    else for (let h = from; h <= to && rows.length < query.limit; h++) push(h);
    return rows;
  }

  accountTransfers(query: TransfersQuery): TransferRow[] {
    const all = this.transfersByAccount.get(query.accountId) ?? [];
    const matches = transferFilter(query);
    let start = transferBound(all, { timestamp: query.fromTimestamp ?? 0n, index: 0 }, false);
    let end = query.toTimestamp === undefined ? all.length : transferBound(all, { timestamp: query.toTimestamp, index: 0 }, false);
    if (query.after !== undefined) {
      if (query.desc) end = Math.min(end, transferBound(all, query.after, false));
      else start = Math.max(start, transferBound(all, query.after, true));
    }
    const rows: TransferRow[] = [];
    const pushIf = (row: TransferRow | undefined) => {
      if (row !== undefined && matches(row)) rows.push(row);
    };
    if (query.desc) {
      for (let i = end - 1; i >= start && rows.length < query.limit; i--) pushIf(all[i]);
    } else {
      for (let i = start; i < end && rows.length < query.limit; i++) pushIf(all[i]);
    }
    return rows;
  }

  receipt(receiptId: string): { row: ReceiptRow; transaction: TransactionRecord | undefined } | undefined {
    const row = this.receipts.get(receiptId);
    return row === undefined ? undefined : { row, transaction: this.txs.get(row.transaction_hash) };
  }
}

function transferPositionOf(row: TransferRow): { timestamp: bigint; index: number } {
  return { timestamp: BigInt(row.block_timestamp), index: row.transfer_index };
}

/** First index whose transfer is at or after `position` (strictly after with `strict`). */
function transferBound(rows: readonly TransferRow[], position: { timestamp: bigint; index: number }, strict: boolean): number {
  return partitionPoint(rows, (row) => {
    const order = compareTransfers(transferPositionOf(row), position);
    return order < 0 || (strict && order === 0);
  });
}

function positionOf(row: AccountTxRow): TxPosition {
  return { height: row.tx_block_height, index: row.tx_index };
}

/** First index whose row is at or after `position`. */
function lowerBound(rows: readonly AccountTxRow[], position: TxPosition): number {
  return partitionPoint(rows, (row) => compare(positionOf(row), position) < 0);
}

/** First index whose row is strictly after `position`. */
function upperBound(rows: readonly AccountTxRow[], position: TxPosition): number {
  return partitionPoint(rows, (row) => compare(positionOf(row), position) <= 0);
}

/** First index of sorted `rows` whose row is not `before` (true for a prefix of them), by bisection. */
function partitionPoint<T>(rows: readonly T[], before: (row: T) => boolean): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const row = rows[mid];
    if (row !== undefined && before(row)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
