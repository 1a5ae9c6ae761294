import { ShardkitError } from "@shardkit/primitives/ShardkitError";
import type pg from "pg";
import type { FtBalance, IndexBlockUpdate, IndexStore } from "../IndexStore.js";
import { migrateIndexSchema } from "./indexSchema.js";
import { PostgresIndexReader } from "./PostgresIndexReader.js";

const DECIMAL = /^(0|[1-9][0-9]*)$/;

/** Thrown when the index already holds the block (another writer applied it first). */
export class IndexHeightConflict extends ShardkitError<"INDEX_HEIGHT_CONFLICT"> {
  override readonly name = "IndexHeightConflict";
  constructor(readonly indexed: number | null, readonly applying: number) {
    super("INDEX_HEIGHT_CONFLICT", `the PostgreSQL index is at block ${indexed}; cannot apply block ${applying}`);
  }
}

/** What a writer session is: a pooled client, or the leader's own session (which holds its lock). */
export type WriterSession = pg.ClientBase;

/**
 * The REST index in PostgreSQL. Each block is one transaction (rows, then the height), so
 * readers on any instance see whole blocks; the height check in that transaction (row-locked)
 * makes a second writer's late block roll back instead of duplicating or reordering rows.
 * `follower` is the block follower's own resume state, committed with the block it belongs to.
 */
export class PostgresIndexStore extends PostgresIndexReader implements IndexStore {
  height: number | null = null;

  private constructor(
    pool: pg.Pool,
    private readonly writer: WriterSession | undefined,
  ) {
    super(pool);
  }

  /**
   * Creates or migrates the schema, then resumes at the last indexed block. Writes go through
   * `writer` when given (the leader's session: if it dies, so do its writes), else a pooled client.
   */
  static async open(pool: pg.Pool, writer?: WriterSession): Promise<PostgresIndexStore> {
    await migrateIndexSchema(pool);
    const store = new PostgresIndexStore(pool, writer);
    await store.refreshHeight();
    return store;
  }

  /** Re-reads the indexed height (after a failed write, or another writer's). */
  async refreshHeight(): Promise<void> {
    this.height = (await this.status()).height;
  }

  /** The follower state committed with the last block (`{}` before any). */
  async followerState(): Promise<unknown> {
    const { rows } = await this.pool.query<{ follower: unknown }>("SELECT follower FROM idx_meta");
    return rows[0]?.follower ?? {};
  }

  apply(update: IndexBlockUpdate): Promise<void> {
    return this.applyWithFollowerState(update, undefined);
  }

  /**
   * Applies one block and, in the same transaction, the follower's state after it and whatever
   * else belongs to the block (`alsoWrite`: its transaction history rows).
   */
  async applyWithFollowerState(update: IndexBlockUpdate, follower: unknown, alsoWrite?: (client: WriterSession) => Promise<void>): Promise<void> {
    // The leader's own session stays open; a pooled client goes back to the pool.
    const pooled = this.writer === undefined ? await this.pool.connect() : undefined;
    const client = this.writer ?? pooled;
    if (client === undefined) throw new Error("no PostgreSQL session to write with");
    try {
      await client.query("BEGIN");
      try {
        await this.write(client, update, follower);
        await alsoWrite?.(client);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      }
      this.height = update.height;
    } finally {
      pooled?.release();
    }
  }

  private async write(client: WriterSession, update: IndexBlockUpdate, follower: unknown): Promise<void> {
    const meta = await client.query<{ height: string | null }>("SELECT height FROM idx_meta FOR UPDATE");
    const indexed = meta.rows[0]?.height == null ? null : Number(meta.rows[0].height);
    if (indexed !== null && update.height <= indexed) throw new IndexHeightConflict(indexed, update.height);

    const live: [string, string, string, number][] = [];
    const deleted: string[] = [];
    for (const [accountId, state] of update.accountStates) {
      if (state === null) deleted.push(accountId);
      else live.push([accountId, state.balance, state.locked, state.storageBytes]);
    }
    if (deleted.length > 0) await client.query("DELETE FROM idx_accounts WHERE account_id = ANY($1::text[])", [deleted]);
    if (live.length > 0) {
      await client.query(
        `INSERT INTO idx_accounts (account_id, balance, locked, storage_bytes)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[])
         ON CONFLICT (account_id) DO UPDATE SET balance = EXCLUDED.balance, locked = EXCLUDED.locked, storage_bytes = EXCLUDED.storage_bytes`,
        columns(live, 4),
      );
    }

    // The last change of a (key, account) pair wins, as when applied one by one.
    const keys = new Map<string, { publicKey: string; accountId: string; full: boolean | null }>();
    for (const { publicKey, accountId, permission } of update.accessKeys) {
      keys.set(`${publicKey} ${accountId}`, { publicKey, accountId, full: permission === null ? null : permission === "full" });
    }
    const keyRows = [...keys.values()];
    const removedKeys = keyRows.filter((k) => k.full === null);
    const keptKeys = keyRows.filter((k) => k.full !== null);
    if (removedKeys.length > 0) {
      await client.query(
        "DELETE FROM idx_access_keys k USING unnest($1::text[], $2::text[]) AS d(public_key, account_id) WHERE k.public_key = d.public_key AND k.account_id = d.account_id",
        [removedKeys.map((k) => k.publicKey), removedKeys.map((k) => k.accountId)],
      );
    }
    if (keptKeys.length > 0) {
      await client.query(
        `INSERT INTO idx_access_keys (public_key, account_id, full_access)
         SELECT * FROM unnest($1::text[], $2::text[], $3::boolean[])
         ON CONFLICT (public_key, account_id) DO UPDATE SET full_access = EXCLUDED.full_access`,
        [keptKeys.map((k) => k.publicKey), keptKeys.map((k) => k.accountId), keptKeys.map((k) => k.full)],
      );
    }

    await touch(client, "idx_ft", "contract_id", update.height, update.ft);
    await touch(client, "idx_nft", "contract_id", update.height, update.nft);
    await touch(
      client,
      "idx_pools",
      "pool_id",
      update.height,
      update.pools.map((p) => ({ accountId: p.accountId, contractId: p.poolId })),
    );

    // Balances: a read value replaces; a deferred read keeps the old one (null when there is none).
    const balances = new Map<string, { contractId: string; accountId: string; balance: FtBalance; replace: boolean }>();
    const balance = (contractId: string, accountId: string, value: FtBalance, replace: boolean) => {
      const key = `${contractId} ${accountId}`;
      if (!replace && balances.get(key)?.replace === true) return;
      balances.set(key, { contractId, accountId, balance: value, replace });
    };
    for (const row of update.ft) balance(row.contractId, row.accountId, row.deferred === true ? null : row.balance, row.deferred !== true);
    for (const row of update.ftRetries ?? []) balance(row.contractId, row.accountId, row.balance, true);
    for (const replace of [true, false]) {
      const rows = [...balances.values()].filter((b) => b.replace === replace);
      if (rows.length === 0) continue;
      await client.query(
        `INSERT INTO idx_ft_balances (contract_id, account_id, balance, amount)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::numeric[])
         ON CONFLICT (contract_id, account_id) DO ${replace ? "UPDATE SET balance = EXCLUDED.balance, amount = EXCLUDED.amount" : "NOTHING"}`,
        [
          rows.map((r) => r.contractId),
          rows.map((r) => r.accountId),
          rows.map((r) => r.balance),
          rows.map((r) => (r.balance !== null && DECIMAL.test(r.balance) ? r.balance : null)),
        ],
      );
    }

    await client.query(
      `UPDATE idx_meta SET height = $1, timestamp_ns = $2, balance_height = CASE WHEN $3 THEN $1 ELSE balance_height END,
         follower = coalesce($4::jsonb, follower)`,
      [update.height, update.timestampNs.toString(), update.balancesRead, follower === undefined ? null : JSON.stringify(follower)],
    );
  }
}

/** Upserts (account, contract) pairs with the block's height, each pair once. */
async function touch(
  client: WriterSession,
  table: string,
  contractColumn: string,
  height: number,
  pairs: readonly { readonly accountId: string; readonly contractId: string }[],
): Promise<void> {
  if (pairs.length === 0) return;
  const unique = new Map(pairs.map((p) => [`${p.contractId} ${p.accountId}`, p]));
  const rows = [...unique.values()];
  await client.query(
    `INSERT INTO ${table} (account_id, ${contractColumn}, last_height)
     SELECT a, c, $3 FROM unnest($1::text[], $2::text[]) AS t(a, c)
     ON CONFLICT (account_id, ${contractColumn}) DO UPDATE SET last_height = EXCLUDED.last_height`,
    [rows.map((r) => r.accountId), rows.map((r) => r.contractId), height],
  );
}

/** Row tuples → one array per column (for unnest). */
function columns<T extends unknown[]>(rows: readonly T[], width: number): unknown[][] {
  const out: unknown[][] = Array.from({ length: width }, () => []);
  for (const row of rows) out.forEach((column, i) => column.push(row[i]));
  return out;
}
