import type pg from "pg";

/** The index schema's version this shardkit writes; older schemas are migrated at start. */
export const INDEX_SCHEMA_VERSION = 3;

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
  // A transaction's details in FastNEAR's indexer shapes: outcomes with their block and index,
  // without proof and gas profile; receipts after the block where they appeared (HistoryStore's
  // historyOutcome / historyReceipt). Records written before are rewritten in place from their
  // rows, so no history is lost (a follower cannot always fetch old blocks again).
  [
    `CREATE FUNCTION pg_temp.hist_outcome(o json, height bigint, ts numeric, idx integer) RETURNS json LANGUAGE sql IMMUTABLE AS $$
       SELECT json_build_object(
         'block_hash', o->'block_hash', 'block_timestamp', ts, 'block_height', height, 'index', idx, 'id', o->'id',
         'outcome', json_build_object(
           'logs', o->'outcome'->'logs', 'receipt_ids', o->'outcome'->'receipt_ids', 'gas_burnt', o->'outcome'->'gas_burnt',
           'tokens_burnt', o->'outcome'->'tokens_burnt', 'executor_id', o->'outcome'->'executor_id', 'status', o->'outcome'->'status',
           'metadata', CASE WHEN o->'outcome'->'metadata'->'contracts' IS NULL
             THEN json_build_object('version', o->'outcome'->'metadata'->'version', 'gas_profile', NULL)
             ELSE json_build_object('version', o->'outcome'->'metadata'->'version', 'gas_profile', NULL, 'contracts', o->'outcome'->'metadata'->'contracts')
           END))
     $$`,
    `UPDATE hist_transactions t SET record = json_build_object(
       'row', t.record->'row',
       'details', json_build_object(
         'transaction', t.record->'details'->'transaction',
         'execution_outcome', pg_temp.hist_outcome(t.record->'details'->'execution_outcome', (t.record->'row'->>'tx_block_height')::bigint,
           (t.record->'row'->>'tx_block_timestamp')::numeric, (t.record->'row'->>'tx_index')::integer),
         'receipts', (
           SELECT COALESCE(json_agg(json_build_object(
             'receipt', json_build_object(
               'block_height', appeared.block_height, 'block_hash', appeared.block_hash,
               'block_timestamp', (appeared.row->>'block_timestamp')::numeric, 'receipt_index', (h.row->>'appear_receipt_index')::integer,
               'predecessor_id', e.r->'receipt'->'predecessor_id', 'receiver_id', e.r->'receipt'->'receiver_id',
               'receipt_id', e.r->'receipt'->'receipt_id', 'receipt', e.r->'receipt'->'receipt', 'priority', e.r->'receipt'->'priority'),
             'execution_outcome', pg_temp.hist_outcome(e.r->'execution_outcome', h.block_height,
               (h.row->>'block_timestamp')::numeric, (h.row->>'receipt_index')::integer)
           ) ORDER BY e.ord), '[]'::json)
           FROM json_array_elements(t.record->'details'->'receipts') WITH ORDINALITY AS e(r, ord)
           JOIN hist_receipts h ON h.receipt_id = e.r->'receipt'->>'receipt_id'
           JOIN hist_blocks appeared ON appeared.block_height = (h.row->>'appear_block_height')::bigint),
         'data_receipts', t.record->'details'->'data_receipts'),
       'accounts', t.record->'accounts')
     WHERE t.record->'details'->'execution_outcome'->'proof' IS NOT NULL`,
    `DROP FUNCTION pg_temp.hist_outcome(json, bigint, numeric, integer)`,
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
