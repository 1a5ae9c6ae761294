import type pg from "pg";
import { connectionFailure } from "../postgres/connectionFailure.js";
import { migrateIndexSchema } from "../postgres/indexSchema.js";
import type { IndexUnavailableError } from "../IndexUnavailableError.js";
import {
  ACCOUNT_ROLE_FLAGS,
  checkNextHeight,
  includedHashes,
  type AccountTxRow,
  type AccountTxsQuery,
  type BlockRow,
  type BlockTxRow,
  type HistoryBlockUpdate,
  type HistoryStore,
  type ReceiptRow,
  type TransactionRecord,
  type TransferRow,
  type TransfersQuery,
} from "./HistoryStore.js";

/** A session a block is written in: a pooled client, or the gateway leader's own (which holds its lock). */
type Session = pg.ClientBase;

/**
 * The history index in PostgreSQL (the gateway's `/v0`; tables in indexSchema.ts, migration 2).
 * A block is one transaction, and the gateway's follower writes it in the transaction of the
 * block's REST rows (`write`), so every instance reads whole blocks. An account's page is one
 * range scan of hist_account_txs' primary key (account, height, index); its unfiltered count
 * is kept per account in hist_account_counts, so a first page costs the same at 1,000 rows
 * or 1,000,000. Rows are stored as `json`, which keeps the field order they were written in.
 */
export class PostgresHistoryStore implements HistoryStore {
  height: number | null = null;

  private constructor(
    private readonly pool: pg.Pool,
    /** Told whether each read reached the database (the gateway logs outages). */
    private readonly watch?: { reachable(): void; unreachable(error: IndexUnavailableError): void },
  ) {}

  /** Creates or migrates the schema, then resumes at the last indexed block. */
  static async open(pool: pg.Pool, watch?: PostgresHistoryStore["watch"]): Promise<PostgresHistoryStore> {
    await migrateIndexSchema(pool);
    const store = PostgresHistoryStore.reader(pool, watch);
    await store.refreshHeight();
    return store;
  }

  /** A reader over a schema already migrated (a gateway instance's `/v0`), without a round trip. */
  static reader(pool: pg.Pool, watch?: PostgresHistoryStore["watch"]): PostgresHistoryStore {
    return new PostgresHistoryStore(pool, watch);
  }

  /** Re-reads the indexed height (after a failed write, or another writer's). */
  async refreshHeight(): Promise<void> {
    this.height = (await this.status()).height;
  }

  /** One statement; a database that cannot be reached fails with IndexUnavailableError (REST answers 503). */
  private async read<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
    try {
      const { rows } = await this.pool.query<R>(text, values);
      this.watch?.reachable();
      return rows;
    } catch (error) {
      const unavailable = connectionFailure(error);
      if (unavailable === undefined) throw error;
      this.watch?.unreachable(unavailable);
      throw unavailable;
    }
  }

  async applyBlocks(updates: readonly HistoryBlockUpdate[]): Promise<void> {
    for (const update of updates) await this.apply(update);
  }

  async apply(update: HistoryBlockUpdate): Promise<void> {
    await inTransaction(await this.pool.connect(), (client) => this.write(client, update));
    this.height = update.block.block_height;
  }

  /** Writes one block inside the caller's transaction (the follower's, with the block's other rows); the caller sets `height` once it commits. */
  async write(client: Session, update: HistoryBlockUpdate): Promise<void> {
    const height = update.block.block_height;
    const meta = await client.query<{ height: string | null }>("SELECT height FROM hist_meta FOR UPDATE");
    checkNextHeight(meta.rows[0]?.height == null ? null : Number(meta.rows[0].height), height);
    const records = update.transactions;
    if (records.length > 0) {
      await client.query(
        `INSERT INTO hist_transactions (transaction_hash, tx_block_height, is_completed, record)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::boolean[], $4::json[])
         ON CONFLICT (transaction_hash) DO UPDATE SET is_completed = EXCLUDED.is_completed, record = EXCLUDED.record`,
        [records.map((r) => r.row.transaction_hash), records.map((r) => r.row.tx_block_height), records.map((r) => r.row.is_completed), records.map((r) => JSON.stringify(r))],
      );
      const rows = records.flatMap((r) => r.accounts);
      if (rows.length > 0) await this.putAccountRows(client, rows);
    }
    if (update.receipts.length > 0) {
      const receipts = update.receipts;
      await client.query(
        `INSERT INTO hist_receipts (receipt_id, block_height, tx_block_height, transaction_hash, row)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::json[])`,
        [receipts.map((r) => r.receipt_id), receipts.map((r) => r.block_height), receipts.map((r) => r.tx_block_height), receipts.map((r) => r.transaction_hash), receipts.map((r) => JSON.stringify(r))],
      );
    }
    const transfers = update.transfers ?? [];
    if (transfers.length > 0) {
      await client.query(
        `INSERT INTO hist_transfers (account_id, block_timestamp, transfer_index, block_height, asset_id, amount, other_account_id, row)
         SELECT * FROM unnest($1::text[], $2::numeric[], $3::bigint[], $4::bigint[], $5::text[], $6::numeric[], $7::text[], $8::json[])`,
        [
          transfers.map((t) => t.account_id),
          transfers.map((t) => t.block_timestamp),
          transfers.map((t) => t.transfer_index),
          transfers.map((t) => t.block_height),
          transfers.map((t) => t.asset_id),
          transfers.map((t) => t.amount),
          transfers.map((t) => t.other_account_id),
          transfers.map((t) => JSON.stringify(t)),
        ],
      );
    }
    await client.query("INSERT INTO hist_blocks (block_height, block_hash, row, tx_hashes, receipt_ids) VALUES ($1, $2, $3::json, $4, $5)", [
      height,
      update.block.block_hash,
      JSON.stringify(update.block),
      includedHashes(update),
      update.receipts.map((r) => r.receipt_id),
    ]);
    await client.query("UPDATE hist_meta SET height = $1, first_height = coalesce(first_height, $1)", [height]);
  }

  /** Inserts account rows or rewrites them in place; a new row adds one to its account's count. */
  private async putAccountRows(client: Session, rows: readonly AccountTxRow[]): Promise<void> {
    const flagColumns = ACCOUNT_ROLE_FLAGS.join(", ");
    const { rows: written } = await client.query<{ account_id: string; inserted: boolean }>(
      `INSERT INTO hist_account_txs (account_id, tx_block_height, tx_index, ${flagColumns}, row)
       SELECT account_id, tx_block_height, tx_index, ${flagColumns}, row
       FROM json_populate_recordset(NULL::hist_account_txs, $1::json)
       ON CONFLICT (account_id, tx_block_height, tx_index) DO UPDATE SET
         ${ACCOUNT_ROLE_FLAGS.map((f) => `${f} = EXCLUDED.${f}`).join(", ")}, row = EXCLUDED.row
       RETURNING account_id, (xmax = 0) AS inserted`,
      [JSON.stringify(rows.map((row) => ({ ...row, row })))],
    );
    const added = new Map<string, number>();
    for (const { account_id, inserted } of written) if (inserted) added.set(account_id, (added.get(account_id) ?? 0) + 1);
    if (added.size === 0) return;
    await client.query(
      `INSERT INTO hist_account_counts (account_id, txs) SELECT * FROM unnest($1::text[], $2::bigint[])
       ON CONFLICT (account_id) DO UPDATE SET txs = hist_account_counts.txs + EXCLUDED.txs`,
      [[...added.keys()], [...added.values()]],
    );
  }

  async incompleteTransactions(): Promise<TransactionRecord[]> {
    const rows = await this.read<{ record: TransactionRecord }>("SELECT record FROM hist_transactions WHERE NOT is_completed ORDER BY transaction_hash");
    return rows.map((r) => r.record);
  }

  async rewind(height: number): Promise<number | null> {
    if (this.height === null) return null;
    const indexed = this.height;
    const kept = await inTransaction(await this.pool.connect(), async (client) => {
      // rewindHeight's walk as a fixed point: a dropped block's receipt drops its transaction's block too.
      let keep = Math.min(height, indexed);
      for (;;) {
        const { rows } = await client.query<{ lowest: string | null }>("SELECT min(tx_block_height) AS lowest FROM hist_receipts WHERE block_height > $1", [keep]);
        const lowest = rows[0]?.lowest == null ? Infinity : Number(rows[0].lowest);
        if (lowest - 1 >= keep) break;
        keep = lowest - 1;
      }
      const { rows: removed } = await client.query<{ account_id: string; n: string }>(
        `WITH gone AS (DELETE FROM hist_account_txs WHERE tx_block_height > $1 RETURNING account_id)
         SELECT account_id, count(*) AS n FROM gone GROUP BY account_id`,
        [keep],
      );
      if (removed.length > 0) {
        await client.query(
          `UPDATE hist_account_counts c SET txs = c.txs - d.n FROM unnest($1::text[], $2::bigint[]) AS d(account_id, n) WHERE c.account_id = d.account_id`,
          [removed.map((r) => r.account_id), removed.map((r) => r.n)],
        );
        await client.query("DELETE FROM hist_account_counts WHERE txs <= 0");
      }
      await client.query("DELETE FROM hist_transactions WHERE tx_block_height > $1", [keep]);
      await client.query("DELETE FROM hist_receipts WHERE block_height > $1", [keep]);
      await client.query("DELETE FROM hist_transfers WHERE block_height > $1", [keep]);
      await client.query("DELETE FROM hist_blocks WHERE block_height > $1", [keep]);
      const { rows } = await client.query<{ first_height: string | null }>("SELECT first_height FROM hist_meta");
      const first = rows[0]?.first_height == null ? null : Number(rows[0].first_height);
      const result = first !== null && keep >= first ? keep : null;
      await client.query("UPDATE hist_meta SET height = $1, first_height = CASE WHEN $1::bigint IS NULL THEN NULL ELSE first_height END", [result]);
      return result;
    });
    this.height = kept;
    return kept;
  }

  /** The pool belongs to the caller. */
  close(): void {}

  async status(): Promise<{ height: number | null }> {
    const rows = await this.read<{ height: string | null }>("SELECT height FROM hist_meta");
    return { height: rows[0]?.height == null ? null : Number(rows[0].height) };
  }

  async transactions(hashes: readonly string[]): Promise<TransactionRecord[]> {
    if (hashes.length === 0) return [];
    const rows = await this.read<{ record: TransactionRecord }>("SELECT record FROM hist_transactions WHERE transaction_hash = ANY($1::text[])", [[...hashes]]);
    const byHash = new Map(rows.map((r) => [r.record.row.transaction_hash, r.record]));
    return hashes.flatMap((hash) => {
      const record = byHash.get(hash);
      return record === undefined ? [] : [record];
    });
  }

  async accountTxs(query: AccountTxsQuery): Promise<{ rows: AccountTxRow[]; count?: number }> {
    const values: unknown[] = [query.accountId, query.fromHeight ?? 0, query.toHeight ?? Number.MAX_SAFE_INTEGER];
    const conditions = ["account_id = $1", "tx_block_height BETWEEN $2 AND $3"];
    for (const flag of ACCOUNT_ROLE_FLAGS) {
      const value = query.flags[flag];
      if (value === undefined) continue;
      values.push(value);
      conditions.push(`${flag} = $${values.length}`);
    }
    const where = conditions.join(" AND ");
    const order = query.desc ? "DESC" : "ASC";
    const page = [...values];
    let after = "";
    if (query.after !== undefined) {
      page.push(query.after.height, query.after.index);
      after = ` AND (tx_block_height, tx_index) ${query.desc ? "<" : ">"} ($${page.length - 1}, $${page.length})`;
    }
    page.push(query.limit);
    // A page and its count in one statement: one snapshot, so the count matches the page.
    const unfiltered = Object.keys(query.flags).length === 0 && query.fromHeight === undefined && query.toHeight === undefined;
    const count = !query.count
      ? "NULL"
      : unfiltered
        ? "coalesce((SELECT txs FROM hist_account_counts WHERE account_id = $1), 0)"
        : `(SELECT count(*) FROM hist_account_txs WHERE ${where})`;
    const rows = await this.read<{ rows: AccountTxRow[]; count: string | null }>(
      `SELECT coalesce((SELECT json_agg(p.row ORDER BY p.tx_block_height ${order}, p.tx_index ${order}) FROM (
         SELECT row, tx_block_height, tx_index FROM hist_account_txs WHERE ${where}${after}
         ORDER BY tx_block_height ${order}, tx_index ${order} LIMIT $${page.length}) p), '[]') AS rows,
       ${count} AS count`,
      page,
    );
    const answer = rows[0]!;
    return answer.count === null ? { rows: answer.rows } : { rows: answer.rows, count: Number(answer.count) };
  }

  async block(id: number | string): Promise<{ row: BlockRow; txs: BlockTxRow[]; receipts: ReceiptRow[] } | undefined> {
    const rows = await this.read<{ row: BlockRow; txs: BlockTxRow[]; receipts: ReceiptRow[] }>(
      `SELECT b.row,
         (SELECT coalesce(json_agg(t.record->'row' ORDER BY array_position(b.tx_hashes, t.transaction_hash::text)), '[]')
            FROM hist_transactions t WHERE t.transaction_hash = ANY(b.tx_hashes)) AS txs,
         (SELECT coalesce(json_agg(r.row ORDER BY array_position(b.receipt_ids, r.receipt_id::text)), '[]')
            FROM hist_receipts r WHERE r.receipt_id = ANY(b.receipt_ids)) AS receipts
       FROM hist_blocks b WHERE ${typeof id === "number" ? "b.block_height = $1" : "b.block_hash = $1"}`,
      [id],
    );
    return rows[0];
  }

  async blocks(query: { fromHeight?: number; toHeight?: number; desc: boolean; limit: number }): Promise<BlockRow[]> {
    const order = query.desc ? "DESC" : "ASC";
    const rows = await this.read<{ row: BlockRow }>(
      `SELECT row FROM hist_blocks WHERE block_height BETWEEN $1 AND $2 ORDER BY block_height ${order} LIMIT $3`,
      [query.fromHeight ?? 0, query.toHeight ?? Number.MAX_SAFE_INTEGER, query.limit],
    );
    return rows.map((r) => r.row);
  }

  async accountTransfers(query: TransfersQuery): Promise<TransferRow[]> {
    const values: unknown[] = [query.accountId, (query.fromTimestamp ?? 0n).toString(), query.toTimestamp?.toString() ?? "1e30"];
    const conditions = ["account_id = $1", "block_timestamp >= $2", "block_timestamp < $3"];
    const add = (condition: (n: number) => string, value: unknown) => {
      values.push(value);
      conditions.push(condition(values.length));
    };
    if (query.after !== undefined) {
      values.push(query.after.timestamp.toString(), query.after.index);
      conditions.push(`(block_timestamp, transfer_index) ${query.desc ? "<" : ">"} ($${values.length - 1}, $${values.length})`);
    }
    if (query.direction !== undefined) conditions.push(query.direction === "sender" ? "amount < 0" : "amount >= 0");
    if (query.assetId !== undefined) add((n) => `asset_id = $${n}`, query.assetId);
    if (query.minAmount !== undefined) add((n) => `abs(amount) >= $${n}`, query.minAmount.toString());
    if (query.ignoreSystem === true) conditions.push("other_account_id IS DISTINCT FROM 'system'");
    values.push(query.limit);
    const order = query.desc ? "DESC" : "ASC";
    const rows = await this.read<{ row: TransferRow }>(
      `SELECT row FROM hist_transfers WHERE ${conditions.join(" AND ")} ORDER BY block_timestamp ${order}, transfer_index ${order} LIMIT $${values.length}`,
      values,
    );
    return rows.map((r) => r.row);
  }

  async receipt(receiptId: string): Promise<{ row: ReceiptRow; transaction: TransactionRecord | undefined } | undefined> {
    const rows = await this.read<{ row: ReceiptRow; record: TransactionRecord | null }>(
      "SELECT r.row, t.record FROM hist_receipts r LEFT JOIN hist_transactions t ON t.transaction_hash = r.transaction_hash WHERE r.receipt_id = $1",
      [receiptId],
    );
    const found = rows[0];
    return found === undefined ? undefined : { row: found.row, transaction: found.record ?? undefined };
  }
}

/** Runs `body` in a transaction on a pooled client, rolling back on failure, and releases the client. */
async function inTransaction<T>(client: pg.PoolClient, body: (client: Session) => Promise<T>): Promise<T> {
  try {
    await client.query("BEGIN");
    try {
      const result = await body(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    }
  } finally {
    client.release();
  }
}
