// Both history stores (memory for --ephemeral, LMDB in the data dir) through one suite: account
// pages (positions, bounds, cursors and counts, including a row that joins an older transaction
// after later blocks, as a cross-shard receiver does), blocks, rewinds and incomplete
// transactions; the LMDB store also across a reopen. The same stores under real chain flows:
// test/rest/history.test.ts (its `main` project runs the memory store, its `disk` project LMDB).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { AccountTxRow, BlockRow, HistoryStore, ReceiptRow, TransactionRecord } from "../../../src/indexer/history/HistoryStore.js";
import { LmdbHistoryStore } from "../../../src/indexer/history/LmdbHistoryStore.js";
import { MemoryHistoryStore } from "../../../src/indexer/history/MemoryHistoryStore.js";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A store of each backend; `reopen` gives the same data back from a new instance where the backend keeps any. */
type SyncStore = MemoryHistoryStore | LmdbHistoryStore;
const BACKENDS: { name: string; open: () => { store: SyncStore; reopen?: () => SyncStore } }[] = [
  { name: "memory", open: () => ({ store: new MemoryHistoryStore() }) },
  {
    name: "lmdb",
    open: () => {
      const dir = mkdtempSync(join(tmpdir(), "shardkit-history-"));
      dirs.push(dir);
      const store = LmdbHistoryStore.open(dir);
      return { store, reopen: () => (void store.close(), LmdbHistoryStore.open(dir)) };
    },
  },
];

const block = (height: number): BlockRow => ({
  block_height: height,
  prev_block_height: height === 0 ? null : height - 1,
  block_hash: `hash${height}`,
  prev_block_hash: `hash${height - 1}`,
  block_timestamp: String(height),
  epoch_id: "e",
  next_epoch_id: "e",
  chunks_included: 1,
  author_id: "test.near",
  protocol_version: 1,
  gas_price: "1",
  block_ordinal: height + 1,
  total_supply: "1",
  num_transactions: 0,
  num_receipts: 0,
  gas_burnt: "0",
  tokens_burnt: "0",
});

function record(height: number, index: number, accounts: Record<string, Partial<AccountTxRow>>, completed = true): TransactionRecord {
  const hash = `tx${height}.${index}`;
  const row = (accountId: string, flags: Partial<AccountTxRow>): AccountTxRow => ({
    account_id: accountId,
    transaction_hash: hash,
    tx_block_height: height,
    tx_block_timestamp: String(height),
    tx_index: index,
    is_signer: false,
    is_delegated_signer: false,
    is_real_signer: false,
    is_any_signer: false,
    is_predecessor: false,
    is_explicit_refund_to: false,
    is_receiver: false,
    is_real_receiver: false,
    is_function_call: false,
    is_action_arg: false,
    is_event_log: false,
    is_success: false,
    ...flags,
  });
  return {
    row: { transaction_hash: hash, tx_block_height: height, tx_index: index, is_completed: completed } as TransactionRecord["row"],
    details: {} as TransactionRecord["details"],
    accounts: Object.entries(accounts).map(([id, flags]) => row(id, flags)),
  };
}

const positions = (rows: readonly AccountTxRow[]) => rows.map((r) => `${r.tx_block_height}.${r.tx_index}`);

/** A receipt row of block `height` for the transaction at (txHeight, txIndex). */
const receipt = (height: number, txHeight: number, txIndex: number): ReceiptRow =>
  ({ receipt_id: `r${height}.${txHeight}.${txIndex}`, block_height: height, transaction_hash: `tx${txHeight}.${txIndex}`, tx_block_height: txHeight, tx_index: txIndex }) as ReceiptRow;

describe.each(BACKENDS)("$name history store", ({ open }) => {
  const { store, reopen } = open();
  store.apply({ block: block(0), transactions: [], receipts: [] });
  store.apply({ block: block(1), transactions: [record(1, 0, { a: { is_signer: true } }), record(1, 1, { a: { is_signer: true } }, false)], receipts: [receipt(1, 1, 0)] });
  store.apply({ block: block(2), transactions: [record(2, 0, { a: { is_signer: true, is_success: true } })], receipts: [receipt(2, 2, 0)] });
  // Block 3 executes a receipt of tx 1.1 naming `b`, and rewrites `a`'s row of it as a success.
  store.apply({ block: block(3), transactions: [record(1, 1, { a: { is_signer: true, is_success: true }, b: { is_receiver: true } })], receipts: [receipt(3, 1, 1)] });
  const page = (query: Partial<Parameters<HistoryStore["accountTxs"]>[0]>) =>
    store.accountTxs({ accountId: "a", flags: {}, desc: true, limit: 10, count: true, ...query });

  it("orders by position both ways, replaces a rewritten row in place and counts the matches", () => {
    expect(positions(page({}).rows)).toEqual(["2.0", "1.1", "1.0"]);
    expect(positions(page({ desc: false }).rows)).toEqual(["1.0", "1.1", "2.0"]);
    expect(page({}).count).toBe(3);
    expect(page({ flags: { is_success: true } })).toMatchObject({ count: 2 });
    expect(positions(page({ flags: { is_success: false } }).rows)).toEqual(["1.0"]);
    expect(positions(store.accountTxs({ accountId: "b", flags: {}, desc: true, limit: 10, count: false }).rows)).toEqual(["1.1"]);
    expect(page({ accountId: "nobody" })).toEqual({ rows: [], count: 0 });
  });

  it("continues strictly after the cursor and keeps within the height bounds", () => {
    expect(positions(page({ limit: 1, after: { height: 2, index: 0 } }).rows)).toEqual(["1.1"]);
    expect(positions(page({ desc: false, after: { height: 1, index: 0 } }).rows)).toEqual(["1.1", "2.0"]);
    expect(positions(page({ desc: false, limit: 1, after: { height: 1, index: 1 } }).rows)).toEqual(["2.0"]);
    expect(positions(page({ after: { height: 1, index: 0 } }).rows)).toEqual([]);
    expect(positions(page({ fromHeight: 2 }).rows)).toEqual(["2.0"]);
    expect(positions(page({ toHeight: 1, desc: false }).rows)).toEqual(["1.0", "1.1"]);
    expect(positions(page({ toHeight: 1 }).rows)).toEqual(["1.1", "1.0"]);
    expect(page({ fromHeight: 3 })).toEqual({ rows: [], count: 0 });
  });

  it("finds blocks by height and hash, and pages blocks within bounds", () => {
    expect(store.block("hash2")?.row.block_height).toBe(2);
    expect(store.block(2)?.txs.map((t) => t.transaction_hash)).toEqual(["tx2.0"]);
    expect(store.block(3)?.txs).toEqual([]);
    expect(store.block(3)?.receipts.map((r) => r.receipt_id)).toEqual(["r3.1.1"]);
    expect(store.block(9)).toBeUndefined();
    expect(store.blocks({ desc: true, limit: 2 }).map((b) => b.block_height)).toEqual([3, 2]);
    expect(store.blocks({ desc: false, limit: 10, fromHeight: 1, toHeight: 2 }).map((b) => b.block_height)).toEqual([1, 2]);
    expect(store.blocks({ desc: false, limit: 10, fromHeight: 3, toHeight: 2 })).toEqual([]);
    expect(store.receipt("r3.1.1")).toMatchObject({ row: { block_height: 3 }, transaction: { row: { transaction_hash: "tx1.1" } } });
    expect(() => store.apply({ block: block(3), transactions: [], receipts: [] })).toThrow(/not after/);
  });

  it("lists the transactions still executing, as last applied", () => {
    store.apply({ block: block(4), transactions: [record(4, 0, { c: {} }, false)], receipts: [] });
    expect(store.incompleteTransactions().map((r) => r.row.transaction_hash)).toEqual(["tx4.0"]);
  });

  it.runIf(reopen !== undefined)("keeps everything across a reopen", () => {
    const again = reopen!();
    expect(again.height).toBe(4);
    expect(positions(again.accountTxs({ accountId: "a", flags: {}, desc: true, limit: 10, count: false }).rows)).toEqual(["2.0", "1.1", "1.0"]);
    expect(again.incompleteTransactions().map((r) => r.row.transaction_hash)).toEqual(["tx4.0"]);
    void again.close();
  });
});

describe.each(BACKENDS)("$name history store rewinds", ({ open }) => {
  const fresh = () => {
    const { store } = open();
    store.apply({ block: block(0), transactions: [], receipts: [] });
    store.apply({ block: block(1), transactions: [record(1, 0, { a: { is_signer: true } }, false)], receipts: [] });
    store.apply({ block: block(2), transactions: [record(2, 0, { b: { is_signer: true } })], receipts: [receipt(2, 2, 0)] });
    // Tx 1.0's last receipt executes in block 3: rewinding below 3 drops it, and so block 1.
    store.apply({ block: block(3), transactions: [record(1, 0, { a: { is_signer: true }, c: { is_receiver: true } })], receipts: [receipt(3, 1, 0)] });
    store.apply({ block: block(4), transactions: [record(4, 0, { c: { is_signer: true } })], receipts: [receipt(4, 4, 0)] });
    return store;
  };
  const hashes = (store: SyncStore, account: string) =>
    positions(store.accountTxs({ accountId: account, flags: {}, desc: false, limit: 10, count: false }).rows);

  it("drops the blocks above the height when no kept transaction has rows above it", () => {
    const store = fresh();
    expect(store.rewind(3)).toBe(3);
    expect(store.height).toBe(3);
    expect(store.block(4)).toBeUndefined();
    expect(store.block("hash4")).toBeUndefined();
    expect(store.receipt("r4.4.0")).toBeUndefined();
    expect(store.transactions(["tx4.0", "tx1.0"]).map((r) => r.row.transaction_hash)).toEqual(["tx1.0"]);
    expect(hashes(store, "c")).toEqual(["1.0"]);
    expect(store.rewind(7)).toBe(3);
    // The next block applies on top.
    store.apply({ block: block(4), transactions: [], receipts: [] });
    expect(store.height).toBe(4);
    void store.close();
  });

  it("goes down to before the block of a transaction that has receipts above the height, and forgets it whole", () => {
    const store = fresh();
    expect(store.rewind(2)).toBe(0);
    expect(store.height).toBe(0);
    expect([hashes(store, "a"), hashes(store, "b"), hashes(store, "c")]).toEqual([[], [], []]);
    expect(store.transactions(["tx1.0", "tx2.0"])).toEqual([]);
    expect(store.incompleteTransactions()).toEqual([]);
    expect(store.blocks({ desc: true, limit: 10 }).map((b) => b.block_height)).toEqual([0]);
    expect(store.rewind(-1)).toBeNull();
    expect(store.height).toBeNull();
    void store.close();
  });

  it("forgets the pending mark of a dropped transaction", () => {
    const store = fresh();
    store.rewind(3);
    store.apply({ block: block(4), transactions: [record(4, 0, { d: {} }, false)], receipts: [] });
    expect(store.rewind(3)).toBe(3);
    expect(store.incompleteTransactions()).toEqual([]);
    void store.close();
  });
});

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
