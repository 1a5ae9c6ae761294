// The PostgreSQL history store (the gateway's `/v0`) through the shared suite
// (historyStoreSuite.ts), on a real PostgreSQL 15, one fresh database per store.

import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TransactionRecord } from "../../../src/indexer/history/HistoryStore.js";
import { PostgresHistoryStore } from "../../../src/indexer/history/PostgresHistoryStore.js";
import { INDEX_SCHEMA_VERSION } from "../../../src/indexer/postgres/indexSchema.js";
import { startPostgres, type PostgresServer } from "../../support/postgresServer.js";
import { block, historyStoreSuite, receipt, record } from "./historyStoreSuite.js";

let server: PostgresServer;
let admin: pg.Pool;
const pools: pg.Pool[] = [];

beforeAll(async () => {
  server = await startPostgres();
  admin = new pg.Pool({ connectionString: server.url, max: 2 });
}, 60_000);

afterAll(async () => {
  for (const pool of pools) await pool.end();
  await admin?.end();
  server?.destroy();
});

let databases = 0;
async function freshPool(): Promise<pg.Pool> {
  const name = `hist_${process.pid}_${++databases}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const pool = new pg.Pool({ connectionString: server.url.replace(/\/postgres$/, `/${name}`), max: 4 });
  pools.push(pool);
  return pool;
}

historyStoreSuite([
  {
    name: "postgres",
    open: async () => {
      const pool = await freshPool();
      const store = await PostgresHistoryStore.open(pool);
      return { store, reopen: () => PostgresHistoryStore.open(pool) };
    },
  },
]);

describe("index schema migration 3", () => {
  it("rewrites a transaction's details written before it in FastNEAR's indexer shapes, from its rows", async () => {
    const pool = await freshPool();
    const store = await PostgresHistoryStore.open(pool);
    const outcome = (id: string, blockHash: string) => ({
      proof: [{ hash: "p", direction: "Left" }],
      block_hash: blockHash,
      id,
      outcome: { logs: [], receipt_ids: [], gas_burnt: 7, tokens_burnt: "70", executor_id: "b.near", status: { SuccessValue: "" }, metadata: { version: 3, gas_profile: [{ cost: "X" }] } },
    });
    const receiptView = { predecessor_id: "a.near", receiver_id: "b.near", receipt_id: "r2.1.0", receipt: { Action: { actions: [] } }, priority: 0 };
    const old = {
      ...record(1, 0, { a: { is_signer: true } }),
      details: { transaction: { hash: "tx1.0" }, execution_outcome: outcome("tx1.0", "hash1"), receipts: [{ receipt: receiptView, execution_outcome: outcome("r2.1.0", "hash2") }], data_receipts: [] },
    } as unknown as TransactionRecord;
    await store.apply({ block: block(0), transactions: [], receipts: [] });
    await store.apply({ block: block(1), transactions: [old], receipts: [] });
    await store.apply({ block: block(2), transactions: [], receipts: [receipt(2, 1, 0)] });
    await pool.query("UPDATE idx_schema SET version = 2");

    const migrated = await PostgresHistoryStore.open(pool);
    expect((await pool.query("SELECT version FROM idx_schema")).rows).toEqual([{ version: INDEX_SCHEMA_VERSION }]);
    const [story] = await migrated.transactions(["tx1.0"]);
    const view = { logs: [], receipt_ids: [], gas_burnt: 7, tokens_burnt: "70", executor_id: "b.near", status: { SuccessValue: "" }, metadata: { version: 3, gas_profile: null } };
    expect(story?.details).toEqual({
      transaction: { hash: "tx1.0" },
      execution_outcome: { block_hash: "hash1", block_timestamp: 1, block_height: 1, index: 0, id: "tx1.0", outcome: view },
      receipts: [
        {
          receipt: { block_height: 2, block_hash: "hash2", block_timestamp: 2, receipt_index: 0, ...receiptView },
          execution_outcome: { block_hash: "hash2", block_timestamp: 2000, block_height: 2, index: 0, id: "r2.1.0", outcome: view },
        },
      ],
      data_receipts: [],
    });
    // Keys in FastNEAR's order, as the wire shows them.
    expect(Object.keys(story!.details.receipts[0]!.receipt)).toEqual(["block_height", "block_hash", "block_timestamp", "receipt_index", "predecessor_id", "receiver_id", "receipt_id", "receipt", "priority"]);
    expect(story?.row).toEqual(old.row);
  });
});
