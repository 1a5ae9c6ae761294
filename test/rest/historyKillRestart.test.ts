// The history index in the data dir across SIGKILL: a real `shardkit serve --data-dir` producing
// a block every 50 ms is killed at random moments while cross-shard transfers are in flight, and
// restarted. After each restart the index catches up and tells every final transaction's story
// as `tx` does; at the end it answers exactly as an index rebuilt from the chain's blocks (each
// block is one LMDB transaction with the index's height, so a kill never leaves half a block).

import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import { base58Decode } from "@shardkit/primitives/base58";
import { encodeSignedTransaction, signTransaction } from "../../src/chain/transaction/index.js";
import { cliNodeArgs } from "../cli/cliProcess.js";
import { sharedWithTx } from "../support/historyStory.js";

const KILLS = 3;
/** Each sends to the next one; bob is on another shard than alice and carol (a receipt a block later). */
const SENDERS = ["alice.test.near", "bob.test.near", "carol.test.near"];

const dir = mkdtempSync(join(tmpdir(), "shardkit-history-kill-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

interface Server {
  readonly child: ChildProcess;
  readonly rpcUrl: string;
  readonly apiUrl: string;
}

async function startServer(): Promise<Server> {
  const child = spawn(process.execPath, [...cliNodeArgs, "serve", "--data-dir", dir, "--block-time", "50", "--rpc-port", "0", "--archival-port", "0", "--api-port", "0"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const started = Date.now();
  for (;;) {
    const rpc = /regular RPC\s+(http:\/\/\S+)/.exec(out);
    const api = /REST API\s+(http:\/\/\S+)\/v1/.exec(out);
    if (rpc && api) return { child, rpcUrl: rpc[1]!, apiUrl: api[1]! };
    if (child.exitCode !== null || Date.now() - started > 30_000) throw new Error(`serve did not start:\n${out}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function kill(server: Server, signal: NodeJS.Signals): Promise<void> {
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill(signal);
  await exited;
}

async function call(url: string, method: string, params: unknown): Promise<any> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const body = (await response.json()) as { result?: unknown; error?: unknown };
  if (body.error !== undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

async function v0(server: Server, path: string, body: unknown): Promise<any> {
  const response = await fetch(`${server.apiUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
  return response.json();
}

/** Sends one transfer per sender (broadcast_tx_async); returns hash → sender. */
async function sendTransfers(server: Server): Promise<Map<string, string>> {
  const head = await call(server.rpcUrl, "block", { finality: "final" });
  const sent = new Map<string, string>();
  for (const [i, sender] of SENDERS.entries()) {
    const key = devKeyPair(sender);
    const accessKey = await call(server.rpcUrl, "query", { request_type: "view_access_key", finality: "optimistic", account_id: sender, public_key: key.publicKeyString });
    const stx = signTransaction(
      {
        version: 0,
        signerId: sender,
        publicKey: key.publicKey,
        nonce: BigInt(accessKey.nonce) + 1n,
        receiverId: SENDERS[(i + 1) % SENDERS.length]!,
        blockHash: base58Decode(head.header.hash),
        actions: [{ type: "Transfer", deposit: 1_000n }],
      },
      key,
    );
    sent.set(await call(server.rpcUrl, "broadcast_tx_async", [Buffer.from(encodeSignedTransaction(stx)).toString("base64")]), sender);
  }
  return sent;
}

/** Resolves once the history index has indexed `height` (a restarted server may catch up first). */
async function indexed(server: Server, height: number): Promise<void> {
  for (;;) {
    const newest = (await v0(server, "/v0/blocks", { limit: 1 })).blocks[0]?.block_height ?? -1;
    if (newest >= height) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Transaction hash → sender, of every transaction seen FINAL. */
const finalTxs = new Map<string, string>();

/** Every final transaction's story on `/v0` is the one `tx` tells, and its sender has a successful row of it. */
async function checkStories(server: Server): Promise<void> {
  for (const [hash, sender] of finalTxs) {
    const status = await call(server.rpcUrl, "EXPERIMENTAL_tx_status", { tx_hash: hash, sender_account_id: sender, wait_until: "FINAL" });
    const story = (await v0(server, "/v0/transactions", { tx_hashes: [hash] })).transactions[0];
    expect(sharedWithTx(story?.execution_outcome), hash).toEqual(sharedWithTx(status.transaction_outcome));
    expect(story.receipts.map((r: { execution_outcome: unknown }) => sharedWithTx(r.execution_outcome))).toEqual(status.receipts_outcome.map(sharedWithTx));
    const height = (await call(server.rpcUrl, "block", { block_id: status.transaction_outcome.block_hash })).header.height;
    const rows = (await v0(server, "/v0/account", { account_id: sender, from_tx_block_height: height, to_tx_block_height: height })).account_txs;
    expect(rows.find((r: { transaction_hash: string }) => r.transaction_hash === hash)).toMatchObject({ is_signer: true, is_success: true });
  }
}

/** What `/v0` answers up to `height`: every sender's rows, the blocks, every final transaction. */
async function answersUpTo(server: Server, height: number): Promise<unknown> {
  const accounts = [];
  for (const account_id of SENDERS) accounts.push(await v0(server, "/v0/account", { account_id, to_tx_block_height: height }));
  const blocks = [];
  for (let to = height; to >= 0; to -= 100) blocks.push(...(await v0(server, "/v0/blocks", { to_block_height: to, limit: 100 })).blocks);
  const transactions = [];
  for (const hash of finalTxs.keys()) transactions.push(...(await v0(server, "/v0/transactions", { tx_hashes: [hash] })).transactions);
  return { accounts, blocks, transactions };
}

describe("the history index across kill -9", () => {
  it(`is whole after ${KILLS} kills during production, and equal to one rebuilt from the blocks`, async () => {
    let server = await startServer();
    for (let round = 0; round < KILLS; round++) {
      await indexed(server, (await call(server.rpcUrl, "block", { finality: "optimistic" })).header.height);
      await checkStories(server);
      for (const [hash, sender] of await sendTransfers(server)) {
        await call(server.rpcUrl, "tx", { tx_hash: hash, sender_account_id: sender, wait_until: "FINAL" });
        finalTxs.set(hash, sender);
      }
      // More in flight, and a kill at a random moment of production and indexing.
      void sendTransfers(server).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 200)));
      await kill(server, "SIGKILL");
      server = await startServer();
    }
    const head = (await call(server.rpcUrl, "block", { finality: "final" })).header.height;
    await indexed(server, head);
    await checkStories(server);
    const recovered = await answersUpTo(server, head);
    await kill(server, "SIGTERM");

    rmSync(join(dir, "history"), { recursive: true, force: true });
    server = await startServer();
    await indexed(server, head);
    expect(await answersUpTo(server, head)).toEqual(recovered);
    await kill(server, "SIGTERM");
  }, 120_000);
});
