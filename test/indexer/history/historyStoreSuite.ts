// The one suite every history store passes (memory for --ephemeral, LMDB in the data dir,
// PostgreSQL on the gateway): account pages (positions, bounds, cursors and counts, including a
// row that joins an older transaction after later blocks, as a cross-shard receiver does),
// blocks, rewinds and incomplete transactions, and the data across a reopen where the backend
// keeps any. Run by historyStores.test.ts (memory, LMDB) and postgresHistoryStore.test.ts.
// The same stores under real chain flows: test/rest/history.test.ts, test/gateway/gatewayHistory.test.ts.

import { beforeAll, describe, expect, it } from "vitest";
import { NO_ROLE_FLAGS } from "../../../src/indexer/history/HistoryBuilder.js";
import type { AccountTxRow, BlockRow, HistoryStore, InFlightReceipts, ReceiptRow, TransactionRecord, TransferRow } from "../../../src/indexer/history/HistoryStore.js";

/** A fresh store of one backend; `reopen` gives the same data back from a new instance. */
export interface HistoryBackend {
  readonly name: string;
  open(): Promise<{ store: HistoryStore; reopen?: () => Promise<HistoryStore> }>;
}

export const block = (height: number): BlockRow => ({
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

export function record(height: number, index: number, accounts: Record<string, Partial<AccountTxRow>>, completed = true): TransactionRecord {
  const hash = `tx${height}.${index}`;
  const row = (accountId: string, flags: Partial<AccountTxRow>): AccountTxRow => ({
    account_id: accountId,
    transaction_hash: hash,
    tx_block_height: height,
    tx_block_timestamp: String(height),
    tx_index: index,
    ...NO_ROLE_FLAGS,
    is_success: false,
    ...flags,
  });
  return {
    row: { transaction_hash: hash, tx_block_height: height, tx_block_timestamp: String(height), tx_index: index, is_completed: completed } as TransactionRecord["row"],
    details: {} as TransactionRecord["details"],
    accounts: Object.entries(accounts).map(([id, flags]) => row(id, flags)),
  };
}

/** An action receipt and a data receipt of a transaction that appeared at block 4 and wait to execute. */
const appearedAt = (index: number) => ({ block_height: 4, block_hash: "hash4", block_timestamp: 4, receipt_index: index, predecessor_id: "c", receiver_id: "d", priority: 0 });
const IN_FLIGHT: InFlightReceipts = {
  receipts: [
    {
      ...appearedAt(0),
      receipt_id: "r4.0",
      receipt: { Action: { signer_id: "c", signer_public_key: "ed25519:1", gas_price: "1", output_data_receivers: [], input_data_ids: ["d4.1"], actions: [], is_promise_yield: false } },
    },
  ],
  dataReceipts: [{ ...appearedAt(1), receipt_id: "r4.1", receipt: { Data: { data_id: "d4.1", data: null, is_promise_resume: false } } }],
};

export const positions = (rows: readonly AccountTxRow[]) => rows.map((r) => `${r.tx_block_height}.${r.tx_index}`);

/** A receipt row of block `height` for the transaction at (txHeight, txIndex). */
export const receipt = (height: number, txHeight: number, txIndex: number): ReceiptRow => ({
  receipt_id: `r${height}.${txHeight}.${txIndex}`,
  block_height: height,
  block_timestamp: String(height * 1000),
  receipt_index: 0,
  appear_block_height: height,
  appear_receipt_index: 0,
  transaction_hash: `tx${txHeight}.${txIndex}`,
  tx_block_height: txHeight,
  tx_block_timestamp: String(txHeight * 1000),
  tx_index: txIndex,
  predecessor_id: "a.near",
  receiver_id: "b.near",
  receipt_type: "Action",
  priority: 0,
  shard_id: 0,
  is_success: true,
});

/** A transfer row of block `height` (timestamp height x 10^18, beyond 2^53) seen by `account`. */
export const transfer = (height: number, index: number, account: string, amount: string, other: string | null = "x.near", asset = "native:near"): TransferRow => ({
  block_height: String(height),
  block_timestamp: (BigInt(height) * 10n ** 18n).toString(),
  transaction_id: null,
  receipt_id: `r${height}.${index}`,
  action_index: 0,
  log_index: null,
  transfer_index: index,
  signer_id: account,
  predecessor_id: account,
  receipt_account_id: account,
  account_id: account,
  other_account_id: other,
  asset_id: asset,
  asset_type: asset === "native:near" ? "Near" : "Ft",
  amount,
  method_name: null,
  transfer_type: asset === "native:near" ? "NativeTransfer" : "FtTransfer",
  human_amount: null,
  usd_amount: null,
  start_of_block_balance: null,
  end_of_block_balance: null,
});

/** Defines the suite for each backend. */
export function historyStoreSuite(backends: readonly HistoryBackend[]): void {
  describe.each(backends)("$name history store", (backend) => {
    let store: HistoryStore;
    let reopen: (() => Promise<HistoryStore>) | undefined;
    beforeAll(async () => {
      ({ store, reopen } = await backend.open());
      await store.apply({ block: block(0), transactions: [], receipts: [] });
      // Blocks 1 to 3 in one batch, as the indexer writes a turn's blocks.
      await store.applyBlocks([
        { block: block(1), transactions: [record(1, 0, { a: { is_signer: true } }), record(1, 1, { a: { is_signer: true } }, false)], receipts: [receipt(1, 1, 0)] },
        { block: block(2), transactions: [record(2, 0, { a: { is_signer: true, is_success: true } })], receipts: [receipt(2, 2, 0)] },
        // Block 3 executes a receipt of tx 1.1 naming `b`, and rewrites `a`'s row of it as a success.
        { block: block(3), transactions: [record(1, 1, { a: { is_signer: true, is_success: true }, b: { is_receiver: true } })], receipts: [receipt(3, 1, 1)] },
      ]);
    });
    const page = async (query: Partial<Parameters<HistoryStore["accountTxs"]>[0]>) =>
      await store.accountTxs({ accountId: "a", flags: {}, desc: true, limit: 10, count: true, ...query });
    const at = async (query: Partial<Parameters<HistoryStore["accountTxs"]>[0]>) => positions((await page(query)).rows);

    it("orders by position both ways, replaces a rewritten row in place and counts the matches", async () => {
      expect(await at({})).toEqual(["2.0", "1.1", "1.0"]);
      expect(await at({ desc: false })).toEqual(["1.0", "1.1", "2.0"]);
      expect((await page({})).count).toBe(3);
      expect(await page({ flags: { is_success: true } })).toMatchObject({ count: 2 });
      expect(await at({ flags: { is_success: false } })).toEqual(["1.0"]);
      expect(positions((await store.accountTxs({ accountId: "b", flags: {}, desc: true, limit: 10, count: false })).rows)).toEqual(["1.1"]);
      expect(await page({ accountId: "nobody" })).toEqual({ rows: [], count: 0 });
      // The rewritten row itself, whole.
      expect((await page({ flags: { is_success: true }, limit: 1, after: { height: 2, index: 0 } })).rows).toEqual([record(1, 1, { a: { is_signer: true, is_success: true } }).accounts[0]]);
    });

    it("continues strictly after the cursor and keeps within the height bounds", async () => {
      expect(await at({ limit: 1, after: { height: 2, index: 0 } })).toEqual(["1.1"]);
      expect(await at({ desc: false, after: { height: 1, index: 0 } })).toEqual(["1.1", "2.0"]);
      expect(await at({ desc: false, limit: 1, after: { height: 1, index: 1 } })).toEqual(["2.0"]);
      expect(await at({ after: { height: 1, index: 0 } })).toEqual([]);
      expect(await at({ fromHeight: 2 })).toEqual(["2.0"]);
      expect(await at({ toHeight: 1, desc: false })).toEqual(["1.0", "1.1"]);
      expect(await at({ toHeight: 1 })).toEqual(["1.1", "1.0"]);
      expect(await page({ toHeight: 1 })).toMatchObject({ count: 2 });
      expect(await page({ fromHeight: 3 })).toEqual({ rows: [], count: 0 });
    });

    it("finds blocks by height and hash, and pages blocks within bounds", async () => {
      expect((await store.block("hash2"))?.row.block_height).toBe(2);
      expect((await store.block(2))?.row).toEqual(block(2));
      expect((await store.block(2))?.txs.map((t) => t.transaction_hash)).toEqual(["tx2.0"]);
      expect((await store.block(3))?.txs).toEqual([]);
      expect((await store.block(3))?.receipts).toEqual([receipt(3, 1, 1)]);
      expect(await store.block(9)).toBeUndefined();
      expect((await store.blocks({ desc: true, limit: 2 })).map((b) => b.block_height)).toEqual([3, 2]);
      expect((await store.blocks({ desc: false, limit: 10, fromHeight: 1, toHeight: 2 })).map((b) => b.block_height)).toEqual([1, 2]);
      expect(await store.blocks({ desc: false, limit: 10, fromHeight: 3, toHeight: 2 })).toEqual([]);
      expect(await store.receipt("r3.1.1")).toMatchObject({ row: { block_height: 3 }, transaction: { row: { transaction_hash: "tx1.1" } } });
      expect(await store.transactions(["tx2.0", "nope", "tx1.0"])).toEqual([record(2, 0, { a: { is_signer: true, is_success: true } }), record(1, 0, { a: { is_signer: true } })]);
      await expect(async () => await store.apply({ block: block(3), transactions: [], receipts: [] })).rejects.toThrow(/not after/);
    });

    it("lists the transactions still executing, as last applied, with the receipts that appeared and wait", async () => {
      await store.apply({ block: block(4), transactions: [{ ...record(4, 0, { c: {} }, false), inFlight: IN_FLIGHT }], receipts: [] });
      expect((await store.incompleteTransactions()).map((r) => r.row.transaction_hash)).toEqual(["tx4.0"]);
      expect((await store.incompleteTransactions())[0]?.inFlight).toEqual(IN_FLIGHT);
      expect(await store.status()).toEqual({ height: 4 });
    });

    it("keeps everything across a reopen", async (context) => {
      if (reopen === undefined) return context.skip();
      const again = await reopen();
      expect(again.height).toBe(4);
      expect(positions((await again.accountTxs({ accountId: "a", flags: {}, desc: true, limit: 10, count: true })).rows)).toEqual(["2.0", "1.1", "1.0"]);
      expect((await again.incompleteTransactions()).map((r) => r.row.transaction_hash)).toEqual(["tx4.0"]);
      expect((await again.incompleteTransactions())[0]?.inFlight).toEqual(IN_FLIGHT);
      await again.close();
    });
  });

  describe.each(backends)("$name history store transfers", (backend) => {
    let store: HistoryStore;
    const at = (rows: readonly TransferRow[]) => rows.map((r) => `${r.block_height}.${r.transfer_index}`);
    const page = async (query: Partial<Parameters<HistoryStore["accountTransfers"]>[0]>) =>
      at(await store.accountTransfers({ accountId: "a", desc: false, limit: 10, ...query }));
    beforeAll(async () => {
      ({ store } = await backend.open());
      await store.apply({ block: block(0), transactions: [], receipts: [] });
      await store.apply({ block: block(1), transactions: [], receipts: [], transfers: [transfer(1, 9999, "a", "-5"), transfer(1, 9999, "x.near", "5", "a"), transfer(1, 20000, "a", "7", "system")] });
      await store.apply({ block: block(2), transactions: [], receipts: [], transfers: [transfer(2, 3, "a", "100", "t.near", "nep141:t.near"), transfer(2, 10000, "a", "-1", null)] });
    });

    it("pages by (timestamp, index) both ways, strictly after the cursor, within timestamp bounds", async () => {
      expect(await page({})).toEqual(["1.9999", "1.20000", "2.3", "2.10000"]);
      expect(await page({ desc: true, limit: 3 })).toEqual(["2.10000", "2.3", "1.20000"]);
      expect(await page({ after: { timestamp: 10n ** 18n, index: 9999 } })).toEqual(["1.20000", "2.3", "2.10000"]);
      expect(await page({ desc: true, after: { timestamp: 2n * 10n ** 18n, index: 3 } })).toEqual(["1.20000", "1.9999"]);
      expect(await page({ fromTimestamp: 2n * 10n ** 18n })).toEqual(["2.3", "2.10000"]);
      expect(await page({ toTimestamp: 2n * 10n ** 18n, desc: true })).toEqual(["1.20000", "1.9999"]);
      expect(await page({ accountId: "x.near" })).toEqual(["1.9999"]);
      expect((await store.accountTransfers({ accountId: "a", desc: false, limit: 1 }))[0]).toEqual(transfer(1, 9999, "a", "-5"));
    });

    it("filters by direction, asset, smallest amount and system", async () => {
      expect(await page({ direction: "sender" })).toEqual(["1.9999", "2.10000"]);
      expect(await page({ direction: "receiver" })).toEqual(["1.20000", "2.3"]);
      expect(await page({ assetId: "nep141:t.near" })).toEqual(["2.3"]);
      expect(await page({ minAmount: 6n })).toEqual(["1.20000", "2.3"]);
      expect(await page({ minAmount: 5n, direction: "sender" })).toEqual(["1.9999"]);
      expect(await page({ ignoreSystem: true })).toEqual(["1.9999", "2.3", "2.10000"]);
    });

    it("forgets the transfers of the blocks a rewind drops", async () => {
      expect(await store.rewind(1)).toBe(1);
      expect(await page({})).toEqual(["1.9999", "1.20000"]);
      await store.close();
    });
  });

  describe.each(backends)("$name history store rewinds", (backend) => {
    const fresh = async () => {
      const { store } = await backend.open();
      await store.apply({ block: block(0), transactions: [], receipts: [] });
      await store.apply({ block: block(1), transactions: [record(1, 0, { a: { is_signer: true } }, false)], receipts: [] });
      await store.apply({ block: block(2), transactions: [record(2, 0, { b: { is_signer: true } })], receipts: [receipt(2, 2, 0)] });
      // Tx 1.0's last receipt executes in block 3: rewinding below 3 drops it, and so block 1.
      await store.apply({ block: block(3), transactions: [record(1, 0, { a: { is_signer: true }, c: { is_receiver: true } })], receipts: [receipt(3, 1, 0)] });
      await store.apply({ block: block(4), transactions: [record(4, 0, { c: { is_signer: true } })], receipts: [receipt(4, 4, 0)] });
      return store;
    };
    const hashes = async (store: HistoryStore, account: string) =>
      positions((await store.accountTxs({ accountId: account, flags: {}, desc: false, limit: 10, count: false })).rows);
    const counted = async (store: HistoryStore, account: string) =>
      (await store.accountTxs({ accountId: account, flags: {}, desc: false, limit: 10, count: true })).count;

    it("drops the blocks above the height when no kept transaction has rows above it", async () => {
      const store = await fresh();
      expect(await counted(store, "c")).toBe(2);
      expect(await store.rewind(3)).toBe(3);
      expect(store.height).toBe(3);
      expect(await store.block(4)).toBeUndefined();
      expect(await store.block("hash4")).toBeUndefined();
      expect(await store.receipt("r4.4.0")).toBeUndefined();
      expect((await store.transactions(["tx4.0", "tx1.0"])).map((r) => r.row.transaction_hash)).toEqual(["tx1.0"]);
      expect(await hashes(store, "c")).toEqual(["1.0"]);
      expect(await counted(store, "c")).toBe(1);
      expect(await store.rewind(7)).toBe(3);
      // The next block applies on top.
      await store.apply({ block: block(4), transactions: [], receipts: [] });
      expect(store.height).toBe(4);
      await store.close();
    });

    it("goes down to before the block of a transaction that has receipts above the height, and forgets it whole", async () => {
      const store = await fresh();
      expect(await store.rewind(2)).toBe(0);
      expect(store.height).toBe(0);
      expect([await hashes(store, "a"), await hashes(store, "b"), await hashes(store, "c")]).toEqual([[], [], []]);
      expect(await counted(store, "a")).toBe(0);
      expect(await store.transactions(["tx1.0", "tx2.0"])).toEqual([]);
      expect(await store.incompleteTransactions()).toEqual([]);
      expect((await store.blocks({ desc: true, limit: 10 })).map((b) => b.block_height)).toEqual([0]);
      expect(await store.rewind(-1)).toBeNull();
      expect(store.height).toBeNull();
      // Empty again: any first block applies.
      await store.apply({ block: block(5), transactions: [], receipts: [] });
      expect(store.height).toBe(5);
      await store.close();
    });

    it("forgets the pending mark of a dropped transaction", async () => {
      const store = await fresh();
      await store.rewind(3);
      await store.apply({ block: block(4), transactions: [record(4, 0, { d: {} }, false)], receipts: [] });
      expect(await store.rewind(3)).toBe(3);
      expect(await store.incompleteTransactions()).toEqual([]);
      await store.close();
    });
  });
}
