// The gateway's transaction history (`gateway --index`): the follower writes `/v0` rows into
// PostgreSQL in each block's transaction, from the upstream's RPC alone, and every instance
// serves them. Real flows run on a real `serve` (a cross-shard transfer, an ft_transfer_call
// with its refund, a failing callback, a relayed transfer, an NFT mint, batches, transactions
// sharing blocks); then every `/v0` answer of the gateway (`/v0/transfers` too) equals `serve`'s (whose rows
// test/rest/history.test.ts checks flag by flag), on the leader and on a second instance.

import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FT_ACCOUNT, NFT_ACCOUNT, RELAY_ACCOUNT } from "../../src/chain/genesis/devGenesis.js";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import { signDelegateAction, type Action } from "../../src/chain/transaction/index.js";
import { PostgresGatewayIndex } from "../../src/gateway/index/PostgresGatewayIndex.js";
import { startGateway, type Gateway } from "../../src/gateway/startGateway.js";
import type { Service } from "../../src/server/startService.js";
import { validateRestResponse } from "../../generated/rest/validators.js";
import type { RestOperationId } from "../../generated/rest/routes.js";
import { ALICE, BOB, CAROL, NEAR, ROOT, signedTx } from "../chain/runtime/helpers.js";
import { rpcResult, startTestService } from "../server/harness.js";
import { startPostgres, type PostgresServer } from "../support/postgresServer.js";

const TGAS = 10n ** 12n;
const MIN_STORAGE = 1_250_000_000_000_000_000_000n;

let service: Service;
let postgres: PostgresServer;
let pool: pg.Pool;
const instances: { index: PostgresGatewayIndex; gateway: Gateway }[] = [];
/** The last block of the flows; every transaction up to it has completed by the followed height. */
let flowsHeight: number;

const call = (methodName: string, args: unknown, deposit = 0n, gas = 100n * TGAS): Action => ({
  type: "FunctionCall",
  methodName,
  args: Buffer.from(JSON.stringify(args)),
  gas,
  deposit,
});

async function send(signer: string, receiver: string, actions: Action[], waitUntil = "FINAL"): Promise<void> {
  const signed = Buffer.from(signedTx(service.chain, signer, receiver, actions)).toString("base64");
  await rpcResult(service.rpcUrl, "send_tx", { signed_tx_base64: signed, wait_until: waitUntil });
}

async function startInstance(): Promise<{ index: PostgresGatewayIndex; gateway: Gateway }> {
  const index = await PostgresGatewayIndex.start({ postgresUrl: postgres.url, upstreamUrls: [service.rpcUrl], followPollMs: 20, leaderPollMs: 50, log: () => undefined });
  const gateway = await startGateway({ host: "127.0.0.1", rpcPort: 0, archivalPort: 0, apiPort: 0, upstreams: [service.rpcUrl], probeIntervalMs: 100, index });
  const instance = { index, gateway };
  instances.push(instance);
  return instance;
}

beforeAll(async () => {
  [service, postgres] = await Promise.all([startTestService({ apiPort: 0 }), startPostgres()]);
  pool = new pg.Pool({ connectionString: postgres.url, max: 2 });
  for (const account of [ALICE, RELAY_ACCOUNT]) await send(ROOT, FT_ACCOUNT, [call("storage_deposit", { account_id: account }, MIN_STORAGE)]);
  await send(ROOT, FT_ACCOUNT, [call("ft_transfer", { receiver_id: ALICE, amount: "1000" }, 1n)]);
  await send(ALICE, BOB, [{ type: "Transfer", deposit: NEAR }]);
  await send(ALICE, FT_ACCOUNT, [call("ft_transfer_call", { receiver_id: RELAY_ACCOUNT, amount: "100", msg: "keep 30" }, 1n)]);
  await send(CAROL, RELAY_ACCOUNT, [call("join_with_failure", { receiver_id: RELAY_ACCOUNT, method_name: "echo", args: { hello: BOB } })]);
  const key = devKeyPair(ALICE);
  const nonce = service.chain.at(service.chain.head()).accessKey(ALICE, formatPublicKey(key.publicKey))!.nonce + 1n;
  const delegate = signDelegateAction(
    { senderId: ALICE, receiverId: BOB, actions: [{ type: "Transfer", deposit: NEAR }], nonce, maxBlockHeight: BigInt(service.chain.head().height + 100), publicKey: key.publicKey },
    key,
  );
  await send(CAROL, ALICE, [delegate]);
  await send(ROOT, NFT_ACCOUNT, [call("nft_mint", { token_id: "gateway-1", token_owner_id: BOB, token_metadata: { title: "g" } }, 10n ** 23n)]);
  await send(ROOT, FT_ACCOUNT, [call("storage_deposit", { account_id: CAROL }, MIN_STORAGE), call("ft_transfer", { receiver_id: CAROL, amount: "5" }, 1n)]);
  await send(ALICE, ALICE, [{ type: "Transfer", deposit: 1n }, call("missing", {}, 0n, TGAS)]);
  const pooled: [string, string][] = [];
  // Transactions sharing blocks: pooled in one turn of the event loop (blocks come on demand, a turn later).
  for (const [signer, receiver, actions] of [
    [BOB, CAROL, [{ type: "Transfer", deposit: 1n }]],
    [CAROL, BOB, [{ type: "Transfer", deposit: 2n }]],
    [ALICE, FT_ACCOUNT, [call("ft_transfer", { receiver_id: RELAY_ACCOUNT, amount: "7" }, 1n)]],
    [ROOT, ROOT, [{ type: "Transfer", deposit: 3n }]],
  ] as [string, string, Action[]][]) {
    pooled.push([service.chain.submitTransaction(signedTx(service.chain, signer, receiver, actions)).hash, signer]);
  }
  for (const [hash, signer] of pooled) await rpcResult(service.rpcUrl, "tx", { tx_hash: hash, sender_account_id: signer, wait_until: "FINAL" });
  flowsHeight = service.chain.head().height;
  // Later blocks, so that every receipt of the flows is final.
  await send(BOB, ALICE, [{ type: "Transfer", deposit: 1n }]);
  await send(BOB, ALICE, [{ type: "Transfer", deposit: 1n }]);
  await startInstance();
  await startInstance();
  // The leader follows the final head: wait until its history holds the flows' last block.
  for (;;) {
    const { rows } = await pool.query<{ height: string | null }>("SELECT height FROM hist_meta");
    if (rows[0]?.height != null && Number(rows[0].height) >= flowsHeight) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}, 120_000);

afterAll(async () => {
  for (const { gateway } of instances) await gateway.close();
  await pool?.end();
  await service?.close();
  postgres?.destroy();
});

const OPERATIONS: Record<string, RestOperationId> = {
  "/v0/transactions": "historyTransactions",
  "/v0/account": "historyAccount",
  "/v0/block": "historyBlock",
  "/v0/blocks": "historyBlocks",
  "/v0/receipt": "historyReceipt",
  "/v0/transfers": "historyTransfers",
};

/** POSTs a body to a `/v0` route, checks the answer against the spec and returns its JSON. */
async function v0(apiUrl: string, path: string, body: unknown): Promise<any> {
  const response = await fetch(`${apiUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const json = await response.json();
  expect(validateRestResponse(OPERATIONS[path]!, response.status, json)).toEqual([]);
  expect(response.status).toBe(200);
  return json;
}

describe("gateway --index transaction history", () => {
  it("answers every block, transaction, receipt and account page as serve does", async () => {
    const gatewayUrl = instances[0]!.gateway.apiUrl!;
    const hashes = new Set<string>();
    const receipts = new Set<string>();
    for (let height = 0; height <= flowsHeight; height++) {
      const body = { block_id: height, with_transactions: true, with_receipts: true };
      const expected = await v0(service.apiUrl!, "/v0/block", body);
      expect({ height, ...(await v0(gatewayUrl, "/v0/block", body)) }).toEqual({ height, ...expected });
      for (const tx of expected.block_txs) hashes.add(tx.transaction_hash);
      for (const receipt of expected.block_receipts) receipts.add(receipt.receipt_id);
    }
    expect(hashes.size).toBe(14);
    // The three sent together shared a block (so tx_index and receipt_index go past 0).
    const busiest = await v0(service.apiUrl!, "/v0/blocks", { to_block_height: flowsHeight, limit: 100 });
    expect(Math.max(...busiest.blocks.map((b: { num_transactions: number }) => b.num_transactions))).toBeGreaterThan(1);
    const blocks = { to_block_height: flowsHeight, limit: 100 };
    expect(await v0(gatewayUrl, "/v0/blocks", blocks)).toEqual(await v0(service.apiUrl!, "/v0/blocks", blocks));
    const txs = { tx_hashes: [...hashes] };
    const stories = await v0(service.apiUrl!, "/v0/transactions", txs);
    expect(await v0(gatewayUrl, "/v0/transactions", txs)).toEqual(stories);
    for (const id of receipts) expect(await v0(gatewayUrl, "/v0/receipt", { receipt_id: id })).toEqual(await v0(service.apiUrl!, "/v0/receipt", { receipt_id: id }));
    const accounts = new Set<string>([ALICE, BOB, CAROL, ROOT, FT_ACCOUNT, NFT_ACCOUNT, RELAY_ACCOUNT, "system"]);
    for (const account of accounts) {
      for (const body of [
        { account_id: account, to_tx_block_height: flowsHeight },
        { account_id: account, to_tx_block_height: flowsHeight, desc: false, limit: 3 },
        { account_id: account, to_tx_block_height: flowsHeight, is_event_log: true },
      ]) {
        expect({ account, body, ...(await v0(gatewayUrl, "/v0/account", body)) }).toEqual({ account, body, ...(await v0(service.apiUrl!, "/v0/account", body)) });
      }
      // Transfers up to the flows' last block (serve's index also has the later ones).
      const upToFlows = (rows: { block_height: string }[]) => rows.filter((r) => Number(r.block_height) <= flowsHeight);
      const transfers = { account_id: account, limit: 100 };
      const expected = upToFlows((await v0(service.apiUrl!, "/v0/transfers", transfers)).transfers);
      expect({ account, rows: upToFlows((await v0(gatewayUrl, "/v0/transfers", transfers)).transfers) }).toEqual({ account, rows: expected });
      if (account === ALICE) expect(expected.length).toBeGreaterThan(5);
    }
  });

  it("serves the same rows from an instance that does not follow", async () => {
    // Both instances race for the leader lock at start: whichever won follows, the other only reads.
    const leader = instances.find((instance) => instance.index.isLeader);
    const other = instances.find((instance) => !instance.index.isLeader);
    expect(instances.filter((instance) => instance.index.isLeader)).toHaveLength(1);
    const body = { account_id: ALICE, to_tx_block_height: flowsHeight };
    expect(await v0(other!.gateway.apiUrl!, "/v0/account", body)).toEqual(await v0(leader!.gateway.apiUrl!, "/v0/account", body));
    expect((await v0(other!.gateway.apiUrl!, "/v0/account", body)).txs_count).toBeGreaterThan(5);
  });
});
