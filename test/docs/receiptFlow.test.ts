// The receipt-flow diagram of the transactions guide (docs/transactions.md), checked on a real
// `shardkit serve`: an ft_transfer signed by test.near (shard 3) is included in shard 3's chunk of
// block h, its receipt runs on ft.test.near's shard 2 in block h+1, and the gas refund to
// test.near runs on shard 3 in block h+2.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import { actions, jsonRpcClient, keyPairFromString, transactionSender } from "../../packages/client/src/jsonrpc/index.js";
import { repoRoot, startServe, stop, type CliProcess, type ServeUrls } from "../cli/cliProcess.js";

let server: CliProcess & ServeUrls;

beforeAll(async () => {
  server = await startServe(["--block-time", "100"]);
});

afterAll(async () => {
  if (server) expect(await stop(server)).toBe(0);
});

async function call(method: string, params: unknown): Promise<any> {
  const reply = await fetch(server.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await reply.json()) as { result?: unknown; error?: unknown };
  if (body.error !== undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

describe("transactions guide: receipt flow across shards", () => {
  it("the guide shows the flow this test checks", () => {
    const guide = readFileSync(join(repoRoot, "docs", "transactions.md"), "utf8");
    expect(guide).toMatch(/block h {5}shard 3 \(test\): the chunk includes the signed transaction/);
    expect(guide).toMatch(/block h\+1 {3}shard 2 \(ft\): {4}the chunk runs that receipt \(FunctionCall ft_transfer\)/);
    expect(guide).toMatch(/block h\+2 {3}shard 3 \(test\): the chunk runs the refund receipt/);
  });

  it("an ft_transfer from test.near runs on ft.test.near's shard one block later, its refund one block after that", async () => {
    const rpc = jsonRpcClient({ url: server.rpcUrl });
    const signer = (id: string) => transactionSender({ rpc, signerId: id, signer: keyPairFromString(devKeyPair(id).secretKeyString) });
    // bob.test.near needs a storage deposit on the token before it can receive.
    await signer("alice.test.near").sendAndWait("ft.test.near", [actions.functionCall("storage_deposit", { account_id: "bob.test.near" }, { deposit: 1_250_000_000_000_000_000_000n })], { waitUntil: "FINAL" });
    const sent = (await signer("test.near").sendAndWait(
      "ft.test.near",
      [actions.functionCall("ft_transfer", { receiver_id: "bob.test.near", amount: "1" }, { deposit: 1n })],
      { waitUntil: "FINAL" },
    )) as any;
    expect(sent.status).toEqual({ SuccessValue: "" });
    const height = async (hash: string) => (await call("block", { block_id: hash })).header.height as number;
    const h = await height(sent.transaction_outcome.block_hash);
    const outcomes = await Promise.all(
      (sent.receipts_outcome as any[]).map(async (o) => ({ executor: o.outcome.executor_id as string, height: await height(o.block_hash) })),
    );
    expect(outcomes).toEqual([
      { executor: "ft.test.near", height: h + 1 },
      { executor: "test.near", height: h + 2 },
    ]);
    // Which shard's chunk carried the transaction: test.near's, shard 3.
    const chunk = await call("chunk", { block_id: h, shard_id: 3 });
    expect((chunk.transactions as { hash: string }[]).map((t) => t.hash)).toContain(sent.transaction.hash);
    // The receipt ran on ft.test.near's shard 2: that chunk of block h+1 ran it (its outcome is in block h+1 on shard 2).
    const receiptId = sent.transaction_outcome.outcome.receipt_ids[0] as string;
    const receipt = await call("EXPERIMENTAL_receipt", { receipt_id: receiptId });
    expect(receipt.receiver_id).toBe("ft.test.near");
    const refund = await call("EXPERIMENTAL_receipt", { receipt_id: sent.receipts_outcome[0].outcome.receipt_ids[0] });
    expect([refund.predecessor_id, refund.receiver_id]).toEqual(["system", "test.near"]);
    const shards = await call("EXPERIMENTAL_protocol_config", { finality: "final" });
    const boundaries = shards.shard_layout.V2?.boundary_accounts ?? shards.shard_layout.V1?.boundary_accounts;
    const shardOf = (id: string) => (boundaries as string[]).filter((b) => b <= id).length;
    expect([shardOf("test.near"), shardOf("ft.test.near")]).toEqual([3, 2]);
  }, 90_000);
});
