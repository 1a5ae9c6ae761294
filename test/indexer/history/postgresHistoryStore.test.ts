// The PostgreSQL history store (the gateway's `/v0`) through the shared suite
// (historyStoreSuite.ts), on a real PostgreSQL 15, one fresh database per store.

import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { PostgresHistoryStore } from "../../../src/indexer/history/PostgresHistoryStore.js";
import { startPostgres, type PostgresServer } from "../../support/postgresServer.js";
import { historyStoreSuite } from "./historyStoreSuite.js";

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
