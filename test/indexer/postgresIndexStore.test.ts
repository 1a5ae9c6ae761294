// The PostgreSQL index against the in-memory one: the same blocks give the same answer to
// every IndexReader call (the shared suite, indexStoreSuite.ts, table cases and fast-check
// sequences), on a real PostgreSQL 15.

import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IndexBlockUpdate, IndexReader } from "../../src/indexer/IndexStore.js";
import { MemoryIndexStore } from "../../src/indexer/MemoryIndexStore.js";
import { INDEX_SCHEMA_VERSION } from "../../src/indexer/postgres/indexSchema.js";
import { IndexHeightConflict, PostgresIndexStore } from "../../src/indexer/postgres/PostgresIndexStore.js";
import { startPostgres, type PostgresServer } from "../support/postgresServer.js";
import { blockUpdate } from "../support/indexBlockUpdate.js";
import { indexStoreSuite } from "./indexStoreSuite.js";

let server: PostgresServer;
let admin: pg.Pool;
/** The suite's pools, ended after it. */
const suitePools: pg.Pool[] = [];

beforeAll(async () => {
  server = await startPostgres();
  admin = new pg.Pool({ connectionString: server.url, max: 2 });
}, 60_000);

afterAll(async () => {
  for (const pool of suitePools) await pool.end();
  await admin?.end();
  server?.destroy();
});

let databases = 0;
/** A fresh database per case, so cases do not see each other's rows. */
async function freshPool(): Promise<pg.Pool> {
  const name = `idx_${process.pid}_${++databases}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const pool = new pg.Pool({ connectionString: server.url.replace(/\/postgres$/, `/${name}`), max: 4 });
  pool.on("error", () => undefined);
  return pool;
}

const block = (height: number, over: Partial<IndexBlockUpdate> = {}): IndexBlockUpdate =>
  blockUpdate(height, BigInt(height) * 1_000_000_123n, over);

const ACCOUNTS = ["a.near", "b.near", "c.near", "zz.near", "pool.test.near"];
const CONTRACTS = ["t.near", "u.near", "n.near"];
const KEYS = ["ed25519:k1", "ed25519:k2", "ed25519:k3"];

/** Every IndexReader answer for the ids the updates use. */
async function answers(reader: IndexReader): Promise<unknown> {
  const out: Record<string, unknown> = { status: await reader.status() };
  for (const id of ACCOUNTS) out[`account ${id}`] = await reader.account(id);
  for (const key of [...KEYS, "ed25519:none"]) {
    out[`key ${key}`] = await reader.accountsByKey(key, true);
    out[`all ${key}`] = await reader.accountsByKey(key, false);
  }
  for (const token of [...CONTRACTS, "nobody.near"]) {
    for (const limit of [1, 2, 100]) out[`top ${token} ${limit}`] = await reader.ftTop(token, limit);
  }
  return out;
}

const balanceArb = fc.oneof(
  fc.constant(null),
  fc.constant(""),
  fc.bigInt({ min: 0n, max: 2n ** 128n - 1n }).map(String),
  fc.constantFrom("0", "1", "10", "007", "-1", "1e3"),
);
const updateArb = (height: number): fc.Arbitrary<IndexBlockUpdate> =>
  fc.record({
    accountStates: fc
      .array(
        fc.tuple(
          fc.constantFrom(...ACCOUNTS),
          fc.option(
            fc.record({
              balance: fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
              locked: fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
              storageBytes: fc.nat(1_000_000),
            }),
          ),
        ),
        { maxLength: 4 },
      )
      .map((entries) => new Map(entries)),
    accessKeys: fc.array(
      fc.record({
        publicKey: fc.constantFrom(...KEYS),
        accountId: fc.constantFrom(...ACCOUNTS),
        permission: fc.constantFrom("full" as const, "limited" as const, null),
      }),
      { maxLength: 5 },
    ),
    ft: fc.array(
      fc.record(
        { accountId: fc.constantFrom(...ACCOUNTS), contractId: fc.constantFrom(...CONTRACTS), balance: balanceArb, deferred: fc.boolean() },
        { requiredKeys: ["accountId", "contractId", "balance"] },
      ),
      { maxLength: 6 },
    ),
    ftRetries: fc.array(
      fc.record({ accountId: fc.constantFrom(...ACCOUNTS), contractId: fc.constantFrom(...CONTRACTS), balance: balanceArb }),
      { maxLength: 3 },
    ),
    nft: fc.array(fc.record({ accountId: fc.constantFrom(...ACCOUNTS), contractId: fc.constantFrom(...CONTRACTS) }), { maxLength: 3 }),
    pools: fc.array(fc.record({ accountId: fc.constantFrom(...ACCOUNTS), poolId: fc.constantFrom("pool.test.near", "x.poolv1.near") }), {
      maxLength: 2,
    }),
    balancesRead: fc.boolean(),
    timestampNs: fc.bigInt({ min: 0n, max: 2n ** 63n }),
  }).map((u) => ({ ...u, height }));

indexStoreSuite([
  {
    name: "postgres",
    open: async () => {
      const pool = await freshPool();
      suitePools.push(pool);
      const store = await PostgresIndexStore.open(pool);
      return { store, reopen: () => PostgresIndexStore.open(pool) };
    },
  },
]);

describe("PostgresIndexStore", () => {
  it("creates schema version " + INDEX_SCHEMA_VERSION + ", resumes at its last block and refuses a block it has", async () => {
    const pool = await freshPool();
    try {
      const store = await PostgresIndexStore.open(pool);
      expect(store.height).toBeNull();
      expect((await pool.query("SELECT version FROM idx_schema")).rows).toEqual([{ version: INDEX_SCHEMA_VERSION }]);
      await expect(store.account("a.near")).rejects.toThrow(/unavailable: the index holds no block yet/);
      await store.applyWithFollowerState(block(0, { accountStates: new Map([["a.near", { balance: "5", locked: "0", storageBytes: 100 }]]) }), {
        open: ["tx1"],
      });
      await store.apply(block(3));
      const resumed = await PostgresIndexStore.open(pool);
      expect(resumed.height).toBe(3);
      expect(await resumed.followerState()).toEqual({ open: ["tx1"] });
      await expect(resumed.apply(block(3))).rejects.toBeInstanceOf(IndexHeightConflict);
      // The refused block left nothing behind.
      expect(await resumed.status()).toEqual({ height: 3, timestampNs: 3_000_000_369n, balanceHeight: null });
    } finally {
      await pool.end();
    }
  });

  it("answers a worked example as the in-memory store does", async () => {
    const pool = await freshPool();
    try {
      const pgStore = await PostgresIndexStore.open(pool);
      const memory = new MemoryIndexStore();
      const blocks = [
        block(1, {
          accountStates: new Map([
            ["a.near", { balance: "1000000000000000000000000000", locked: "0", storageBytes: 182 }],
            ["b.near", { balance: "1", locked: "2", storageBytes: 3 }],
          ]),
          accessKeys: [
            { publicKey: "ed25519:k1", accountId: "b.near", permission: "full" },
            { publicKey: "ed25519:k1", accountId: "a.near", permission: "limited" },
          ],
          ft: [
            { accountId: "a.near", contractId: "t.near", balance: "10" },
            { accountId: "b.near", contractId: "t.near", balance: "10" },
            { accountId: "c.near", contractId: "t.near", balance: "" },
          ],
          balancesRead: true,
        }),
        block(2, {
          accountStates: new Map([["b.near", null]]),
          accessKeys: [{ publicKey: "ed25519:k1", accountId: "a.near", permission: "full" }],
          ft: [{ accountId: "a.near", contractId: "t.near", balance: "999", deferred: true }],
          nft: [{ accountId: "a.near", contractId: "n.near" }],
          pools: [{ accountId: "a.near", poolId: "pool.test.near" }],
        }),
        block(5, { ftRetries: [{ accountId: "a.near", contractId: "t.near", balance: "11" }], balancesRead: true }),
      ];
      for (const b of blocks) {
        memory.apply(b);
        await pgStore.apply(b);
      }
      expect(await answers(pgStore)).toEqual(await answers(memory));
      expect((await pgStore.ftTop("t.near", 100)).holders).toEqual([
        { accountId: "a.near", balance: "11" },
        { accountId: "b.near", balance: "10" },
      ]);
    } finally {
      await pool.end();
    }
  });

  it("gives every IndexReader answer the in-memory store gives, for any sequence of blocks", async () => {
    const blocksArb = fc
      .array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 6 })
      .chain((gaps) => {
        let height = 0;
        return fc.tuple(...gaps.map((gap) => updateArb((height += gap))));
      });
    await fc.assert(
      fc.asyncProperty(blocksArb, async (blocks) => {
        const pool = await freshPool();
        try {
          const pgStore = await PostgresIndexStore.open(pool);
          const memory = new MemoryIndexStore();
          for (const b of blocks) {
            memory.apply(b);
            await pgStore.apply(b);
          }
          expect(await answers(pgStore)).toEqual(await answers(memory));
        } finally {
          await pool.end();
        }
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
