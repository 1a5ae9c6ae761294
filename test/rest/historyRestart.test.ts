// The transaction history index of `serve --data-dir` lives in `<data-dir>/history`: a restart
// answers `/v0` with the same rows at once (no rebuild), a transaction still executing when the
// service stopped completes after the restart, and a deleted (or torn) index is rebuilt from
// the chain's blocks with a catch-up report.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FT_ACCOUNT } from "../../src/chain/genesis/devGenesis.js";
import type { Action } from "../../src/chain/transaction/index.js";
import type { Service } from "../../src/server/startService.js";
import { ALICE, BOB, CAROL, NEAR, ROOT, signedTx } from "../chain/runtime/helpers.js";
import { rpcResult, startTestService } from "../server/harness.js";
import { sharedWithTx } from "../support/historyStory.js";

const dataDir = mkdtempSync(join(tmpdir(), "shardkit-history-restart-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A service on the shared data dir; `reports` collects its history catch-up reports. */
async function start(): Promise<{ service: Service; reports: [number, number][] }> {
  const reports: [number, number][] = [];
  const service = await startTestService({ apiPort: 0, chain: { dataDir }, onHistoryCatchUp: (indexed, target) => reports.push([indexed, target]) });
  return { service, reports };
}

async function v0(service: Service, path: string, body: unknown): Promise<any> {
  const response = await fetch(`${service.apiUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
  return response.json();
}

/** Sends a transaction over JSON-RPC and waits for FINAL and the history index. */
async function transact(service: Service, signer: string, receiver: string, actions: Action[]): Promise<string> {
  const signed = Buffer.from(signedTx(service.chain, signer, receiver, actions)).toString("base64");
  const result = (await rpcResult(service.rpcUrl, "send_tx", { signed_tx_base64: signed, wait_until: "FINAL" })) as { transaction: { hash: string } };
  await service.historyIndexer.whenIndexed(service.chain.head().height);
  return result.transaction.hash;
}

/** Everything `/v0` says about the accounts and transactions involved, and the newest blocks. */
async function answers(service: Service, hashes: readonly string[]): Promise<unknown> {
  const accounts = await Promise.all([ALICE, BOB, CAROL, FT_ACCOUNT].map((account_id) => v0(service, "/v0/account", { account_id })));
  const blocks = await v0(service, "/v0/blocks", { limit: 100 });
  const contents = await Promise.all(
    blocks.blocks.slice(0, 20).map((b: { block_height: number }) => v0(service, "/v0/block", { block_id: b.block_height, with_transactions: true, with_receipts: true })),
  );
  return { accounts, blocks, contents, transactions: await v0(service, "/v0/transactions", { tx_hashes: hashes }) };
}

describe("the history index in the data dir", () => {
  const hashes: string[] = [];
  let before: unknown;
  let pending: { hash: string; height: number };

  it("answers the same rows after a restart, without indexing a block again", async () => {
    const { service } = await start();
    hashes.push(await transact(service, ALICE, BOB, [{ type: "Transfer", deposit: NEAR }]));
    hashes.push(await transact(service, ROOT, FT_ACCOUNT, [{ type: "FunctionCall", methodName: "storage_deposit", args: Buffer.from(JSON.stringify({ account_id: CAROL })), gas: 30n * 10n ** 12n, deposit: 1_250_000_000_000_000_000_000n }]));
    // A cross-shard transfer left executing: included, its receipt to bob not yet run; before
    // it more blocks than one indexing turn takes, so that a rebuild would be reported.
    service.chain.stop();
    for (let i = 0; i < 100; i++) service.chain.produceBlock();
    pending = { hash: service.chain.submitTransaction(signedTx(service.chain, ALICE, BOB, [{ type: "Transfer", deposit: 5n }])).hash, height: service.chain.produceBlock().height };
    hashes.push(pending.hash);
    await service.historyIndexer.whenIndexed(pending.height);
    before = await answers(service, hashes);
    const height = service.historyIndexer.store.height;
    await service.close();

    const again = await start();
    try {
      // Read before any turn could index: the store opened at the height it was closed at.
      expect(again.service.historyIndexer.store.height).toBe(height);
      again.service.chain.stop();
      expect(await answers(again.service, hashes)).toEqual(before);
      expect(again.reports).toEqual([]);
      // The pending transaction completes in the restarted service.
      again.service.chain.produceBlock(); // bob's receipt
      const refunded = again.service.chain.produceBlock().height; // its gas refund to alice (NEP-642's price surplus)
      await again.service.historyIndexer.whenIndexed(refunded);
      const block = await v0(again.service, "/v0/block", { block_id: pending.height, with_transactions: true });
      expect(block.block_txs).toMatchObject([{ transaction_hash: pending.hash, is_completed: true, is_success: true, last_block_height: refunded }]);
      const bob = await v0(again.service, "/v0/account", { account_id: BOB, limit: 1 });
      expect(bob.account_txs[0]).toMatchObject({ transaction_hash: pending.hash, is_receiver: true, is_real_receiver: true, is_success: true });
      // Enough empty blocks that a rebuild is one long enough to report.
      for (let i = 0; i < 100; i++) again.service.chain.produceBlock();
      await again.service.historyIndexer.whenIndexed(again.service.chain.head().height);
      const story = (await v0(again.service, "/v0/transactions", { tx_hashes: [pending.hash] })).transactions[0];
      const status = (await rpcResult(again.service.rpcUrl, "EXPERIMENTAL_tx_status", { tx_hash: pending.hash, sender_account_id: ALICE, wait_until: "FINAL" })) as any;
      expect(story.receipts.map((r: any) => sharedWithTx(r.execution_outcome))).toEqual(status.receipts_outcome.map(sharedWithTx));
      before = await answers(again.service, hashes);
    } finally {
      await again.service.close();
    }
  });

  it("rebuilds a deleted index from the chain's blocks, reporting the catch-up", async () => {
    rmSync(join(dataDir, "history"), { recursive: true, force: true });
    const { service, reports } = await start();
    try {
      service.chain.stop();
      await service.historyIndexer.whenIndexed(service.chain.head().height);
      expect(await answers(service, hashes)).toEqual(before);
      expect(reports[0]![0]).toBe(-1);
      expect(reports.at(-1)).toEqual([service.chain.head().height, service.chain.head().height]);
    } finally {
      await service.close();
    }
  });

  it("throws away an index an earlier boot left open (a system crash may have torn it) and rebuilds it", async () => {
    writeFileSync(join(dataDir, "history", "open-in-boot"), "another-boot\n");
    const { service, reports } = await start();
    try {
      service.chain.stop();
      expect(service.historyIndexer.store.height).toBeNull();
      await service.historyIndexer.whenIndexed(service.chain.head().height);
      expect(await answers(service, hashes)).toEqual(before);
      expect(reports.length).toBeGreaterThan(0);
    } finally {
      await service.close();
    }
  });
});
