// The REST account-data index of `serve --data-dir` lives in `<data-dir>/rest-index`: a restart
// answers `/v1` with the same rows at once (no block indexed again), a revert rebuilds it to the
// kept blocks, and a deleted index is rebuilt from the chain's blocks with a catch-up report.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FT_ACCOUNT } from "../../src/chain/genesis/devGenesis.js";
import type { Action } from "../../src/chain/transaction/index.js";
import type { Service } from "../../src/server/startService.js";
import { ALICE, BOB, CAROL, NEAR, ROOT, signedTx } from "../chain/runtime/helpers.js";
import { rpcResult, startTestService } from "../server/harness.js";

const dataDir = mkdtempSync(join(tmpdir(), "shardkit-rest-index-restart-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function start(): Promise<{ service: Service; reports: [number, number][] }> {
  const reports: [number, number][] = [];
  const service = await startTestService({ apiPort: 0, chain: { dataDir }, onIndexCatchUp: (indexed, target) => reports.push([indexed, target]) });
  return { service, reports };
}

async function v1(service: Service, path: string): Promise<unknown> {
  const response = await fetch(`${service.apiUrl}${path}`);
  expect(response.status).toBe(200);
  return response.json();
}

/** Sends a transaction over JSON-RPC, waits for FINAL and for the REST index to have the head. */
async function transact(service: Service, signer: string, receiver: string, actions: Action[]): Promise<void> {
  const signed = Buffer.from(signedTx(service.chain, signer, receiver, actions)).toString("base64");
  await rpcResult(service.rpcUrl, "send_tx", { signed_tx_base64: signed, wait_until: "FINAL" });
  await service.indexer.whenIndexed(service.chain.head().height);
}

/** Everything `/v1` says about the accounts involved, the token's holders and a key. */
async function answers(service: Service): Promise<unknown> {
  const key = service.chain.devAccounts.find((a) => a.accountId === ALICE)!.publicKey;
  return {
    accounts: await Promise.all([ALICE, BOB, CAROL, FT_ACCOUNT].map((id) => v1(service, `/v1/account/${id}/full`))),
    top: await v1(service, `/v1/ft/${FT_ACCOUNT}/top`),
    key: await v1(service, `/v1/public_key/${key}/all`),
  };
}

const ftTransfer = (receiver: string, amount: string): Action[] => [
  { type: "FunctionCall", methodName: "storage_deposit", args: Buffer.from(JSON.stringify({ account_id: receiver })), gas: 30n * 10n ** 12n, deposit: 1_250_000_000_000_000_000_000n },
  { type: "FunctionCall", methodName: "ft_transfer", args: Buffer.from(JSON.stringify({ receiver_id: receiver, amount })), gas: 30n * 10n ** 12n, deposit: 1n },
];

describe("the REST index in the data dir", () => {
  let before: unknown;

  it("answers the same rows after a restart, without indexing a block again", async () => {
    const { service } = await start();
    await transact(service, ALICE, BOB, [{ type: "Transfer", deposit: NEAR }]);
    await transact(service, ROOT, FT_ACCOUNT, ftTransfer(CAROL, "1000"));
    before = await answers(service);
    expect(JSON.stringify(before)).toContain(CAROL);
    const height = service.indexer.store.height;
    await service.close();

    const again = await start();
    try {
      again.service.chain.stop();
      // Read before any turn could index: the store opened at the height it was closed at.
      expect(again.service.indexer.store.height).toBe(height);
      expect(await answers(again.service)).toEqual(before);
      expect(again.reports).toEqual([]);
    } finally {
      await again.service.close();
    }
  });

  it("a revert rebuilds it to the kept blocks, and a restart after that keeps them", async () => {
    const { service } = await start();
    try {
      const { snapshot_id } = (await rpcResult(service.rpcUrl, "shardkit_snapshot", {})) as { snapshot_id: string };
      await transact(service, ROOT, FT_ACCOUNT, ftTransfer(BOB, "7"));
      expect(await answers(service)).not.toEqual(before);
      await rpcResult(service.rpcUrl, "shardkit_revert", { snapshot_id });
      await service.indexer.whenIndexed(service.chain.head().height);
      expect(await answers(service)).toEqual(before);
    } finally {
      await service.close();
    }
    const again = await start();
    try {
      again.service.chain.stop();
      expect(await answers(again.service)).toEqual(before);
    } finally {
      await again.service.close();
    }
  });

  it("rebuilds a deleted index from the chain's blocks, reporting the catch-up", async () => {
    rmSync(join(dataDir, "rest-index"), { recursive: true, force: true });
    const { service, reports } = await start();
    try {
      service.chain.stop();
      await service.indexer.whenIndexed(service.chain.head().height);
      expect(await answers(service)).toEqual(before);
      expect(reports.at(-1)).toEqual([service.chain.head().height, service.chain.head().height]);
    } finally {
      await service.close();
    }
  });
});
