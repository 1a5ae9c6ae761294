// The memory and LMDB history stores through the shared suite (historyStoreSuite.ts), and the
// memory store's derived idle block rows.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { IndexUnavailableError } from "../../../src/indexer/IndexUnavailableError.js";
import { LmdbHistoryStore } from "../../../src/indexer/history/LmdbHistoryStore.js";
import { MemoryHistoryStore } from "../../../src/indexer/history/MemoryHistoryStore.js";
import { block, historyStoreSuite, receipt, record } from "./historyStoreSuite.js";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

historyStoreSuite([
  { name: "memory", open: async () => ({ store: new MemoryHistoryStore() }) },
  {
    name: "lmdb",
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), "shardkit-history-"));
      dirs.push(dir);
      const store = LmdbHistoryStore.open(dir);
      return { store, reopen: async () => (await store.close(), LmdbHistoryStore.open(dir)) };
    },
  },
]);

describe("MemoryHistoryStore with idle block rows derived", () => {
  // The "chain": every height's row, as the block's header gives it (num_* zero).
  const chainRow = (id: number | string) => {
    const height = typeof id === "number" ? id : Number(String(id).replace("hash", ""));
    return Number.isInteger(height) && height >= 0 && height < 100 ? { ...block(height), author_id: "derived" } : undefined;
  };
  const store = new MemoryHistoryStore({ idleBlockRow: chainRow });
  store.apply({ block: block(0), transactions: [], receipts: [] });
  store.apply({ block: block(1), transactions: [], receipts: [] });
  store.apply({ block: { ...block(2), num_transactions: 1 }, transactions: [record(2, 0, { a: { is_signer: true } })], receipts: [receipt(2, 2, 0)] });
  store.apply({ block: block(3), transactions: [], receipts: [] });

  it("keeps only the rows of blocks that did something, and derives the others up to the indexed height", () => {
    expect(store.blocks({ desc: false, limit: 10 }).map((b) => [b.block_height, b.author_id])).toEqual([
      [0, "derived"],
      [1, "derived"],
      [2, "test.near"],
      [3, "derived"],
    ]);
    expect(store.block("hash3")).toEqual({ row: chainRow(3), txs: [], receipts: [] });
    expect(store.block(2)?.txs.map((t) => t.transaction_hash)).toEqual(["tx2.0"]);
    expect(store.block(4)).toBeUndefined();
    expect(store.block("hash4")).toBeUndefined();
  });

  it("rewinds over derived blocks, and below the first block to nothing", () => {
    expect(store.rewind(1)).toBe(1);
    expect(store.blocks({ desc: true, limit: 10 }).map((b) => b.block_height)).toEqual([1, 0]);
    expect(store.transactions(["tx2.0"])).toEqual([]);
    expect(store.rewind(-1)).toBeNull();
    expect(store.blocks({ desc: true, limit: 10 })).toEqual([]);
  });
});

describe("LmdbHistoryStore closed", () => {
  it("answers IndexUnavailableError (/v0 says 503) instead of a driver error while a reset or a stop closes it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "shardkit-history-closed-"));
    dirs.push(dir);
    const store = LmdbHistoryStore.open(dir);
    store.apply({ block: block(0), transactions: [], receipts: [] });
    await store.close();
    const reads = [
      () => store.transactions(["tx"]),
      () => store.accountTxs({ accountId: "a", flags: {}, desc: true, limit: 10, count: false }),
      () => store.block(0),
      () => store.blocks({ desc: false, limit: 10 }),
      () => store.accountTransfers({ accountId: "a", desc: true, limit: 10 }),
      () => store.receipt("r"),
    ];
    for (const read of reads) expect(read).toThrow(IndexUnavailableError);
  });
});
