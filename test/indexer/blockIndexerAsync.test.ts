// BlockIndexer over a store whose apply is asynchronous (PostgreSQL): blocks are awaited in
// order, live following and catching up give what the synchronous in-memory store gives, and
// the in-memory path stays synchronous.

import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import { BlockIndexer } from "../../src/indexer/BlockIndexer.js";
import type { IndexBlockUpdate } from "../../src/indexer/IndexStore.js";
import { MemoryIndexStore } from "../../src/indexer/MemoryIndexStore.js";
import { PostgresIndexStore } from "../../src/indexer/postgres/PostgresIndexStore.js";
import { ALICE, BOB, NEAR, ROOT, keyOf, openChain, settle, submit } from "../chain/runtime/helpers.js";
import { startPostgres, type PostgresServer } from "../support/postgresServer.js";

let server: PostgresServer;
let pool: pg.Pool;
beforeAll(async () => {
  server = await startPostgres();
  pool = new pg.Pool({ connectionString: server.url, max: 4 });
}, 60_000);
afterAll(async () => {
  await pool?.end();
  server?.destroy();
});

/** Records the order blocks reach the store and whether one started before the last finished. */
class OrderedStore extends MemoryIndexStore {
  readonly order: number[] = [];
  overlapped = false;
  private busy = false;
  constructor(private readonly inner: PostgresIndexStore) {
    super();
  }
  override apply(update: IndexBlockUpdate): Promise<void> {
    if (this.busy) this.overlapped = true;
    this.busy = true;
    this.order.push(update.height);
    return this.inner.apply(update).then(() => {
      super.apply(update);
      this.busy = false;
    });
  }
}

describe("BlockIndexer with an asynchronous store", () => {
  it("awaits each block in order while following; the PostgreSQL index answers as the in-memory one", async () => {
    const chain = await openChain();
    const memory = new MemoryIndexStore();
    const memoryIndexer = new BlockIndexer(chain, memory);
    memoryIndexer.start();
    // The synchronous store applied genesis inside start(): no promise on its path.
    expect(memory.height).toBe(chain.genesisBlock.height);

    const ordered = new OrderedStore(await PostgresIndexStore.open(pool));
    const indexer = new BlockIndexer(chain, ordered);
    indexer.start();
    const key = keyOf("async");
    for (let i = 0; i < 3; i++) {
      settle(chain, submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: NEAR + BigInt(i) }]));
    }
    settle(chain, submit(chain, ROOT, ROOT, [{ type: "AddKey", publicKey: key.publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } }]));
    const head = chain.head().height;
    await Promise.all([indexer.whenIndexed(head), memoryIndexer.whenIndexed(head)]);
    expect(ordered.overlapped).toBe(false);
    expect(ordered.order).toEqual([...ordered.order].sort((a, b) => a - b));
    expect(ordered.order.at(-1)).toBe(head);

    const rebuiltPool = await freshDatabase();
    const rebuilt = await BlockIndexer.rebuildAsync(chain, await PostgresIndexStore.open(rebuiltPool));
    for (const reader of [ordered, rebuilt]) {
      for (const id of [ALICE, BOB, ROOT]) expect(await reader.account(id)).toEqual(memory.account(id));
      expect(await reader.accountsByKey(formatPublicKey(key.publicKey), true)).toEqual(memory.accountsByKey(formatPublicKey(key.publicKey), true));
    }
    indexer.stop();
    memoryIndexer.stop();
    await rebuiltPool.end();
  }, 60_000);
});

async function freshDatabase(): Promise<pg.Pool> {
  await pool.query("CREATE DATABASE rebuilt");
  const fresh = new pg.Pool({ connectionString: server.url.replace(/\/postgres$/, "/rebuilt"), max: 2 });
  fresh.on("error", () => undefined);
  return fresh;
}
