// MemoryHistoryStore's account pages: positions, bounds, cursors and counts, including a row
// that joins an older transaction after later blocks (a cross-shard receiver).

import { describe, expect, it } from "vitest";
import type { AccountTxRow, BlockRow, TransactionRecord } from "../../../src/indexer/history/HistoryStore.js";
import { MemoryHistoryStore } from "../../../src/indexer/history/MemoryHistoryStore.js";

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

function record(height: number, index: number, accounts: Record<string, Partial<AccountTxRow>>): TransactionRecord {
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
    row: { transaction_hash: hash, tx_block_height: height, tx_index: index } as TransactionRecord["row"],
    details: {} as TransactionRecord["details"],
    accounts: Object.entries(accounts).map(([id, flags]) => row(id, flags)),
  };
}

const positions = (rows: readonly AccountTxRow[]) => rows.map((r) => `${r.tx_block_height}.${r.tx_index}`);

describe("MemoryHistoryStore account pages", () => {
  const store = new MemoryHistoryStore();
  store.apply({ block: block(0), transactions: [], receipts: [] });
  store.apply({ block: block(1), transactions: [record(1, 0, { a: { is_signer: true } }), record(1, 1, { a: { is_signer: true } })], receipts: [] });
  store.apply({ block: block(2), transactions: [record(2, 0, { a: { is_signer: true, is_success: true } })], receipts: [] });
  // Block 3 executes a receipt of tx 1.1 naming `b`, and rewrites `a`'s row of it as a success.
  store.apply({ block: block(3), transactions: [record(1, 1, { a: { is_signer: true, is_success: true }, b: { is_receiver: true } })], receipts: [] });
  const page = (query: Partial<Parameters<MemoryHistoryStore["accountTxs"]>[0]>) =>
    store.accountTxs({ accountId: "a", flags: {}, desc: true, limit: 10, count: true, ...query });

  it("orders by position both ways, replaces a rewritten row in place and counts the matches", () => {
    expect(positions(page({}).rows)).toEqual(["2.0", "1.1", "1.0"]);
    expect(positions(page({ desc: false }).rows)).toEqual(["1.0", "1.1", "2.0"]);
    expect(page({}).count).toBe(3);
    expect(page({ flags: { is_success: true } })).toMatchObject({ count: 2 });
    expect(positions(page({ flags: { is_success: false } }).rows)).toEqual(["1.0"]);
    expect(positions(store.accountTxs({ accountId: "b", flags: {}, desc: true, limit: 10, count: false }).rows)).toEqual(["1.1"]);
  });

  it("continues strictly after the cursor and keeps within the height bounds", () => {
    expect(positions(page({ limit: 1, after: { height: 2, index: 0 } }).rows)).toEqual(["1.1"]);
    expect(positions(page({ desc: false, after: { height: 1, index: 0 } }).rows)).toEqual(["1.1", "2.0"]);
    expect(positions(page({ fromHeight: 2 }).rows)).toEqual(["2.0"]);
    expect(positions(page({ toHeight: 1, desc: false }).rows)).toEqual(["1.0", "1.1"]);
    expect(page({ fromHeight: 3 })).toEqual({ rows: [], count: 0 });
  });

  it("finds blocks by height and hash, and pages blocks within bounds", () => {
    expect(store.block("hash2")?.row.block_height).toBe(2);
    expect(store.block(2)?.txs.map((t) => t.transaction_hash)).toEqual(["tx2.0"]);
    expect(store.block(3)?.txs).toEqual([]);
    expect(store.blocks({ desc: true, limit: 2 }).map((b) => b.block_height)).toEqual([3, 2]);
    expect(store.blocks({ desc: false, limit: 10, fromHeight: 1, toHeight: 2 }).map((b) => b.block_height)).toEqual([1, 2]);
    expect(() => store.apply({ block: block(3), transactions: [], receipts: [] })).toThrow(/not after/);
  });
});
