import type pg from "pg";

/** The index schema's version this shardkit writes; older schemas are migrated at start. */
export const INDEX_SCHEMA_VERSION = 2;

/** Serializes concurrent migrations of several instances starting at once (advisory lock key). */
const MIGRATION_LOCK = 0x5348_4b01;

/**
 * Migrations by the version they lead to. Ids and token ids are `COLLATE "C"` (byte order,
 * as the in-memory store sorts account ids); balances stay text as the contracts answered
 * them, with the decimal ones also as `numeric` for the top-holders order.
 */
const MIGRATIONS: readonly (readonly string[])[] = [
  [],
  [
    `CREATE TABLE idx_meta (
       singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
       height bigint,
       timestamp_ns numeric(20, 0),
       balance_height bigint,
       follower jsonb NOT NULL DEFAULT '{}'::jsonb
     )`,
    `INSERT INTO idx_meta DEFAULT VALUES`,
    `CREATE TABLE idx_accounts (
       account_id text COLLATE "C" PRIMARY KEY,
       balance text NOT NULL,
       locked text NOT NULL,
       storage_bytes bigint NOT NULL
     )`,
    `CREATE TABLE idx_access_keys (
       public_key text COLLATE "C" NOT NULL,
       account_id text COLLATE "C" NOT NULL,
       full_access boolean NOT NULL,
       PRIMARY KEY (public_key, account_id)
     )`,
    `CREATE TABLE idx_ft (
       account_id text COLLATE "C" NOT NULL,
       contract_id text COLLATE "C" NOT NULL,
       last_height bigint NOT NULL,
       PRIMARY KEY (account_id, contract_id)
     )`,
    `CREATE TABLE idx_ft_balances (
       contract_id text COLLATE "C" NOT NULL,
       account_id text COLLATE "C" NOT NULL,
       balance text,
       amount numeric,
       PRIMARY KEY (contract_id, account_id)
     )`,
    `CREATE INDEX idx_ft_balances_top ON idx_ft_balances (contract_id, amount DESC, account_id DESC) WHERE amount IS NOT NULL`,
    `CREATE TABLE idx_nft (
       account_id text COLLATE "C" NOT NULL,
       contract_id text COLLATE "C" NOT NULL,
       last_height bigint NOT NULL,
       PRIMARY KEY (account_id, contract_id)
     )`,
    `CREATE TABLE idx_pools (
       account_id text COLLATE "C" NOT NULL,
       pool_id text COLLATE "C" NOT NULL,
       last_height bigint NOT NULL,
       PRIMARY KEY (account_id, pool_id)
     )`,
  ],
  // The transaction history (`/v0`, see PostgresHistoryStore): rows as the stores' types, as
  // `json` (kept as written: the wire's field order); an account's page is one range scan of
  // hist_account_txs' primary key, its unfiltered count one row of hist_account_counts.
  [
    `CREATE TABLE hist_meta (
       singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
       height bigint,
       first_height bigint
     )`,
    `INSERT INTO hist_meta DEFAULT VALUES`,
    `CREATE TABLE hist_blocks (
       block_height bigint PRIMARY KEY,
       block_hash text COLLATE "C" NOT NULL UNIQUE,
       row json NOT NULL,
       tx_hashes text[] NOT NULL,
       receipt_ids text[] NOT NULL
     )`,
    `CREATE TABLE hist_transactions (
       transaction_hash text COLLATE "C" PRIMARY KEY,
       tx_block_height bigint NOT NULL,
       is_completed boolean NOT NULL,
       record json NOT NULL
     )`,
    `CREATE INDEX hist_transactions_height ON hist_transactions (tx_block_height)`,
    `CREATE INDEX hist_transactions_incomplete ON hist_transactions (transaction_hash) WHERE NOT is_completed`,
    `CREATE TABLE hist_account_txs (
       account_id text COLLATE "C" NOT NULL,
       tx_block_height bigint NOT NULL,
       tx_index integer NOT NULL,
       is_signer boolean NOT NULL,
       is_delegated_signer boolean NOT NULL,
       is_real_signer boolean NOT NULL,
       is_any_signer boolean NOT NULL,
       is_predecessor boolean NOT NULL,
       is_explicit_refund_to boolean NOT NULL,
       is_receiver boolean NOT NULL,
       is_real_receiver boolean NOT NULL,
       is_function_call boolean NOT NULL,
       is_action_arg boolean NOT NULL,
       is_event_log boolean NOT NULL,
       is_success boolean NOT NULL,
       row json NOT NULL,
       PRIMARY KEY (account_id, tx_block_height, tx_index)
     )`,
    `CREATE INDEX hist_account_txs_height ON hist_account_txs (tx_block_height)`,
    `CREATE TABLE hist_account_counts (
       account_id text COLLATE "C" PRIMARY KEY,
       txs bigint NOT NULL
     )`,
    `CREATE TABLE hist_receipts (
       receipt_id text COLLATE "C" PRIMARY KEY,
       block_height bigint NOT NULL,
       tx_block_height bigint NOT NULL,
       transaction_hash text COLLATE "C" NOT NULL,
       row json NOT NULL
     )`,
    `CREATE INDEX hist_receipts_height ON hist_receipts (block_height)`,
    `CREATE TABLE hist_transfers (
       account_id text COLLATE "C" NOT NULL,
       block_timestamp numeric(20, 0) NOT NULL,
       transfer_index bigint NOT NULL,
       block_height bigint NOT NULL,
       asset_id text COLLATE "C" NOT NULL,
       amount numeric(40, 0) NOT NULL,
       other_account_id text COLLATE "C",
       row json NOT NULL,
       PRIMARY KEY (account_id, block_timestamp, transfer_index)
     )`,
    `CREATE INDEX hist_transfers_height ON hist_transfers (block_height)`,
  ],
];

/**
 * Creates or migrates the index schema in one transaction, under an advisory lock so that
 * instances starting together do not race. Refuses a schema newer than this shardkit.
 */
export async function migrateIndexSchema(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await client.query("CREATE TABLE IF NOT EXISTS idx_schema (version integer NOT NULL)");
    const found = await client.query<{ version: number }>("SELECT version FROM idx_schema");
    const current = found.rows[0]?.version ?? 0;
    if (current > INDEX_SCHEMA_VERSION) {
      throw new Error(`the PostgreSQL index has schema version ${current}, newer than this shardkit's ${INDEX_SCHEMA_VERSION}`);
    }
    for (let version = current + 1; version <= INDEX_SCHEMA_VERSION; version++) {
      const statements = MIGRATIONS[version];
      if (statements === undefined) throw new Error(`this shardkit has no migration to index schema version ${version}`);
      for (const statement of statements) await client.query(statement);
    }
    if (found.rows.length === 0) await client.query("INSERT INTO idx_schema (version) VALUES ($1)", [INDEX_SCHEMA_VERSION]);
    else await client.query("UPDATE idx_schema SET version = $1", [INDEX_SCHEMA_VERSION]);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
