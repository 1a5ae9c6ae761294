import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { devKeyPair } from "../../../src/chain/genesis/devKey.js";
import { base58Decode } from "@shardkit/primitives/base58";
import { encodeSignedTransaction, signTransaction } from "../../../src/chain/transaction/index.js";
import { cliNodeArgs } from "../../cli/cliProcess.js";

/*
 * A real `shardkit serve` on a data dir, killed with SIGKILL at random moments while it
 * produces blocks (every 50 ms) and takes transactions, then restarted on the same dir.
 * Default run: 3 kills; `npm run test:crash-long` (SHARDKIT_CRASH_KILLS=20) is the long mode,
 * which prints its figures (kills, blocks, transactions checked, time) for the README.
 */

const KILLS = Number(process.env.SHARDKIT_CRASH_KILLS ?? 3);
const SENDERS = ["alice.test.near", "bob.test.near", "carol.test.near"];
const RECEIVER = "test.near";

const dir = mkdtempSync(join(tmpdir(), "shardkit-crash-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

interface Server {
  child: ChildProcess;
  rpcUrl: string;
  archivalUrl: string;
  apiUrl: string;
  stderr: () => string;
}

async function startServer(): Promise<Server> {
  const child = spawn(
    process.execPath,
    [...cliNodeArgs, "serve", "--data-dir", dir, "--block-time", "50", "--rpc-port", "0", "--archival-port", "0", "--api-port", "0"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const started = Date.now();
  for (;;) {
    const rpc = /regular RPC\s+(http:\/\/\S+)/.exec(stdout);
    const archival = /archival RPC\s+(http:\/\/\S+)/.exec(stdout);
    const api = /REST API\s+(http:\/\/\S+)\/v1/.exec(stdout);
    if (rpc && archival && api) return { child, rpcUrl: rpc[1]!, archivalUrl: archival[1]!, apiUrl: api[1]!, stderr: () => stderr };
    if (child.exitCode !== null || Date.now() - started > 30_000) throw new Error(`serve did not start:\n${stdout}\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function call(url: string, method: string, params: unknown): Promise<any> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const body = (await response.json()) as { result?: unknown; error?: unknown };
  if (body.error !== undefined) throw new Error(`${method} ${JSON.stringify(params)}: ${JSON.stringify(body.error)}`);
  return body.result;
}

/** What was final (or shown as the head) before a kill and must be served the same after it. */
interface Recorded {
  /** Height → hash and state roots (header prev_state_root and each chunk's) of every block a client saw. */
  blocks: Map<number, { hash: string; stateRoots: string[] }>;
  /** Transaction hash → the block a `tx` answer placed it in just before a kill (not yet final). */
  included: Map<string, { sender: string; nonce: bigint; blockHash: string }>;
  /** Final block height → accounts as view_account answered them at that block. */
  accounts: Map<number, Record<string, unknown>>;
  /** Transaction hash → its FINAL `tx` answer. */
  transactions: Map<string, { sender: string; answer: unknown }>;
  /** Receipt id → its EXPERIMENTAL_receipt answer. */
  receipts: Map<string, unknown>;
  /** Sender → highest nonce of a transaction answered FINAL. */
  nonces: Map<string, bigint>;
}

const recorded: Recorded = { blocks: new Map(), included: new Map(), accounts: new Map(), transactions: new Map(), receipts: new Map(), nonces: new Map() };

async function nextNonce(url: string, sender: string): Promise<bigint> {
  const key = await call(url, "query", { request_type: "view_access_key", finality: "optimistic", account_id: sender, public_key: devKeyPair(sender).publicKeyString });
  return BigInt(key.nonce) + 1n;
}

/** Sends one transfer per sender through broadcast_tx_async; returns hash → sender and nonce. */
async function sendTransfers(url: string, nonces: Map<string, bigint>): Promise<Map<string, { sender: string; nonce: bigint }>> {
  const head = await call(url, "block", { finality: "final" });
  const sent = new Map<string, { sender: string; nonce: bigint }>();
  for (const sender of SENDERS) {
    const key = devKeyPair(sender);
    const nonce = nonces.get(sender)!;
    nonces.set(sender, nonce + 1n);
    const stx = signTransaction(
      {
        version: 0,
        signerId: sender,
        publicKey: key.publicKey,
        nonce,
        receiverId: RECEIVER,
        blockHash: base58Decode(head.header.hash),
        actions: [{ type: "Transfer", deposit: 1_000n + nonce }],
      },
      key,
    );
    const hash = await call(url, "broadcast_tx_async", [Buffer.from(encodeSignedTransaction(stx)).toString("base64")]);
    sent.set(hash, { sender, nonce });
  }
  return sent;
}

/** Records the chain as a client sees it now: final blocks, head, final transactions and their receipts, balances. */
async function record(server: Server, sent: Map<string, { sender: string; nonce: bigint }>): Promise<void> {
  for (const [hash, { sender, nonce }] of sent) {
    const answer = await call(server.rpcUrl, "tx", { tx_hash: hash, sender_account_id: sender, wait_until: "FINAL" });
    expect(answer.final_execution_status).toBe("FINAL");
    recorded.transactions.set(hash, { sender, answer });
    if (nonce > (recorded.nonces.get(sender) ?? 0n)) recorded.nonces.set(sender, nonce);
    for (const outcome of answer.receipts_outcome) {
      recorded.receipts.set(outcome.id, await call(server.archivalUrl, "EXPERIMENTAL_receipt", { receipt_id: outcome.id }));
    }
  }
  const final = await call(server.archivalUrl, "block", { finality: "final" });
  const head = await call(server.archivalUrl, "block", { finality: "optimistic" });
  for (let h = 0; h <= head.header.height; h++) {
    if (recorded.blocks.has(h)) continue;
    const block = await call(server.archivalUrl, "block", { block_id: h }).catch(() => undefined);
    if (block !== undefined && block.header.height <= head.header.height) recorded.blocks.set(h, { hash: block.header.hash, stateRoots: stateRootsOf(block) });
  }
  const accounts: Record<string, unknown> = {};
  for (const id of [...SENDERS, RECEIVER]) {
    accounts[id] = await call(server.rpcUrl, "query", { request_type: "view_account", block_id: final.header.height, account_id: id });
  }
  recorded.accounts.set(final.header.height, accounts);
}

function stateRootsOf(block: any): string[] {
  return [block.header.prev_state_root, ...block.chunks.map((c: any) => c.prev_state_root)];
}

/** Just before a kill: transactions a client is told are in a block (any status past NONE) must survive it. */
async function recordIncluded(url: string, inFlight: Map<string, { sender: string; nonce: bigint }>): Promise<void> {
  for (const [hash, { sender, nonce }] of inFlight) {
    const answer = await call(url, "tx", { tx_hash: hash, sender_account_id: sender, wait_until: "NONE" }).catch(() => undefined);
    const blockHash = answer?.transaction_outcome?.block_hash;
    if (typeof blockHash === "string") {
      recorded.included.set(hash, { sender, nonce, blockHash });
      const block = await call(url, "block", { block_id: blockHash }).catch(() => undefined);
      if (block !== undefined) recorded.blocks.set(block.header.height, { hash: blockHash, stateRoots: stateRootsOf(block) });
    }
  }
}

/** serve's default `--retention`: the regular listener serves the state of the last 1000 blocks, no older. */
const RETENTION = 1000;

/** Everything recorded is served again, on the regular (within its retention) and the archival listener, and on REST. */
/** Heights whose block was checked after a kill that followed its recording. */
const verifiedHeights = new Set<number>();

/**
 * `all`: every recorded block (the last start); otherwise the blocks recorded since the last
 * check, so each block is checked after the kill that followed it and all again at the end
 * (checking every block after every kill made the long mode quadratic).
 */
async function verify(server: Server, all: boolean): Promise<void> {
  const head = await call(server.archivalUrl, "block", { finality: "optimistic" });
  // Half the retention as margin: blocks keep coming (every 50 ms) while this runs.
  const listeners = (height: number) => (head.header.height - height < RETENTION / 2 ? [server.rpcUrl, server.archivalUrl] : [server.archivalUrl]);
  for (const [height, { hash, stateRoots }] of recorded.blocks) {
    if (!all && verifiedHeights.has(height)) continue;
    verifiedHeights.add(height);
    // No height a client saw is reused with another hash, and its state roots are the same.
    expect(height).toBeLessThanOrEqual(head.header.height);
    for (const url of listeners(height)) {
      const block = await call(url, "block", { block_id: height });
      expect(block.header.hash, `block ${height}`).toBe(hash);
      expect(stateRootsOf(block), `state roots of block ${height}`).toEqual(stateRoots);
      expect((await call(url, "block", { block_id: hash })).header.height).toBe(height);
    }
  }
  for (const [hash, { sender, nonce, blockHash }] of recorded.included) {
    const answer = await call(server.rpcUrl, "tx", { tx_hash: hash, sender_account_id: sender, wait_until: "NONE" });
    expect(answer.transaction_outcome.block_hash, `transaction ${hash} included before a kill`).toBe(blockHash);
    if (nonce > (recorded.nonces.get(sender) ?? 0n)) recorded.nonces.set(sender, nonce);
  }
  for (const [height, accounts] of recorded.accounts) {
    for (const [id, view] of Object.entries(accounts)) {
      for (const url of listeners(height)) {
        expect(await call(url, "query", { request_type: "view_account", block_id: height, account_id: id })).toEqual(view);
      }
    }
  }
  for (const [hash, { sender, answer }] of recorded.transactions) {
    for (const url of [server.rpcUrl, server.archivalUrl]) {
      expect(await call(url, "tx", { tx_hash: hash, sender_account_id: sender, wait_until: "NONE" })).toEqual(answer);
    }
  }
  for (const [id, receipt] of recorded.receipts) {
    expect(await call(server.archivalUrl, "EXPERIMENTAL_receipt", { receipt_id: id })).toEqual(receipt);
  }
  for (const [sender, nonce] of recorded.nonces) {
    expect(await nextNonce(server.rpcUrl, sender)).toBeGreaterThan(nonce);
  }
  const rest = await fetch(`${server.apiUrl}/v1/account/${RECEIVER}/full`);
  expect(rest.status).toBe(200);
  const full = (await rest.json()) as { account_id: string; state: { balance: string } | null };
  expect(full.account_id).toBe(RECEIVER);
  expect(full.state).not.toBeNull();
}

describe("kill -9 during block production and restart", () => {
  it(`keeps every final block, transaction, receipt, outcome and state entry across ${KILLS} kills; the chain continues`, async () => {
    const startedMs = Date.now();
    for (let round = 0; round <= KILLS; round++) {
      const server = await startServer();
      await verify(server, round === KILLS);
      const nonces = new Map<string, bigint>();
      for (const sender of SENDERS) nonces.set(sender, await nextNonce(server.rpcUrl, sender));
      // Confirmed: wait until FINAL and record.
      await record(server, await sendTransfers(server.rpcUrl, nonces));
      if (round === KILLS) {
        // The last start: the chain goes on producing after all the kills.
        const before = (await call(server.rpcUrl, "block", { finality: "optimistic" })).header.height;
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect((await call(server.rpcUrl, "block", { finality: "optimistic" })).header.height).toBeGreaterThan(before);
        server.child.kill("SIGTERM");
        await new Promise((resolve) => server.child.once("exit", resolve));
        expect(server.child.exitCode).toBe(0);
        const seconds = ((Date.now() - startedMs) / 1000).toFixed(0);
        console.log(
          `crash figures: ${KILLS} SIGKILLs, ${recorded.blocks.size} blocks checked (hash and state roots; each after the next kill and all after the last), ` +
            `${recorded.transactions.size} final and ${recorded.included.size} included-before-kill transactions, ` +
            `${recorded.receipts.size} receipts, ${recorded.accounts.size} final states checked, ${seconds} s`,
        );
        break;
      }
      // In flight: send more and kill at a random moment of block production.
      const inFlight = sendTransfers(server.rpcUrl, nonces).catch(() => new Map<string, { sender: string; nonce: bigint }>());
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 300)));
      // What a client was told is in a block right before the kill (blocks keep coming meanwhile).
      if (Math.random() < 0.5) await recordIncluded(server.rpcUrl, await inFlight);
      server.child.kill("SIGKILL");
      await new Promise((resolve) => server.child.once("exit", resolve));
    }
  }, 60_000 + KILLS * 30_000);
});
