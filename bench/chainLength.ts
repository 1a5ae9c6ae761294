/**
 * What chain length costs a `serve --data-dir` node (`npm run bench -- --only=chainlength`, or
 * `node --import tsx bench/chainLength.ts [--quick] [--blocks=N]`), every figure a ratio
 * against a baseline taken in the same run:
 * - anonymous memory (RssAnon: the JS heap and native allocations, not LMDB's file-backed map),
 *   its lowest over the last N/10 blocks minus its lowest over the first N/10, each phase in a
 *   freshly started server (target: <= 30 MiB at N = 100,000; the lowest, since the heap swings
 *   by tens of MiB between collections);
 * - blocks per second (sandbox_fast_forward) over the last N/10 blocks vs the first N/10 (>= 0.9);
 * - restart at N blocks: time to the first answer (<= 1 s), beside a restart at N/10;
 * - shardkit_revert of 2 blocks at N (<= 50 ms), beside a `status` round trip;
 * - the slowest `status` round trip while more blocks are fast-forwarded (<= 50 ms);
 * - archival `block` and `tx` lookups near height 1 vs near the head (<= 1.2x).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { devKeyPair } from "../src/chain/genesis/devKey.js";
import { base58Decode } from "@shardkit/primitives/base58";
import { encodeSignedTransaction, signTransaction } from "../src/chain/transaction/index.js";

const root = join(import.meta.dirname, "..");
const cli = join(root, "dist", "cli", "main.js");
const ALICE = "alice.test.near";

interface Server {
  readonly child: ChildProcess;
  /** The regular listener (dev-chain controls). */
  readonly url: string;
  /** The archival listener (every block). */
  readonly archival: string;
  /** The REST listener's origin (routes under /v1, index status at /status). */
  readonly api: string;
  /** Ms from spawn to the first answered `status`. */
  readonly firstAnswerMs: number;
}

/** Extra node flags for the server, e.g. BENCH_NODE_ARGS="--max-old-space-size=64". */
const serverNodeArgs = process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [];

/** Servers still running (killed if the bench fails). */
const live = new Set<ChildProcess>();

async function startServe(dataDir: string): Promise<Server> {
  const started = performance.now();
  const child = spawn(process.execPath, [...serverNodeArgs, cli, "serve", "--log-level", "warn", "--rpc-port", "0", "--archival-port", "0", "--api-port", "0", "--block-time", "0", "--data-dir", dataDir], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  live.add(child);
  child.once("exit", () => live.delete(child));
  const [url, archival, api] = await new Promise<[string, string, string]>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const rpc = /regular RPC\s+(http:\/\/\S+)/.exec(out);
      const arch = /archival RPC\s+(http:\/\/\S+)/.exec(out);
      const api = /REST API\s+(http:\/\/\S+)\/v1/.exec(out);
      if (rpc && arch && api) resolve([rpc[1]!, arch[1]!, api[1]!]);
    });
    child.once("exit", (code) => reject(new Error(`serve exited with ${code}:\n${out}`)));
  });
  await call(url, "status", []);
  return { child, url, archival, api, firstAnswerMs: performance.now() - started };
}

/** Resolves once the REST index has caught up with the chain head (a restarted server rebuilds it from every block). */
async function indexCaughtUp(server: Server): Promise<void> {
  const head: number = (await call(server.url, "block", { finality: "optimistic" })).header.height;
  for (;;) {
    const status = (await (await fetch(`${server.api}/status`)).json()) as { sync_block_height: number | null };
    if (status.sync_block_height !== null && status.sync_block_height >= head) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function stop(server: Server): Promise<void> {
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill("SIGTERM");
  await exited;
}

async function call(url: string, method: string, params: unknown): Promise<any> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const reply = (await response.json()) as { result?: unknown; error?: unknown };
  if (reply.error !== undefined) throw new Error(`${method}: ${JSON.stringify(reply.error)}`);
  return reply.result;
}

function rssAnonMiB(pid: number): number {
  return Number(/RssAnon:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
}

/**
 * The lowest RssAnon seen every 50 ms while `work` runs and for 2 s after it: the server's
 * heap swings by tens of MiB between collections, and its troughs are what it keeps.
 */
async function lowestAnonDuring<T>(pid: number, work: () => Promise<T>): Promise<[T, number]> {
  let lowest = Infinity;
  const timer = setInterval(() => (lowest = Math.min(lowest, rssAnonMiB(pid))), 50);
  try {
    const result = await work();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    return [result, Math.min(lowest, rssAnonMiB(pid))];
  } finally {
    clearInterval(timer);
  }
}

/**
 * The slowest `status` round trip while `work` runs, asking again as soon as each answer is in:
 * how long a client waits behind the chain's work (the bound: 50 ms).
 */
async function worstStatusDuring<T>(url: string, work: () => Promise<T>): Promise<[T, number]> {
  let worst = 0;
  let done = false;
  const poll = (async () => {
    while (!done) {
      const t = performance.now();
      await call(url, "status", []);
      worst = Math.max(worst, performance.now() - t);
    }
  })();
  try {
    return [await work(), worst];
  } finally {
    done = true;
    await poll;
  }
}

/** Blocks per second of fast-forwarding `blocks` blocks (in calls of at most 10,000). */
async function fastForward(url: string, blocks: number): Promise<number> {
  const t = performance.now();
  for (let left = blocks; left > 0; left -= 10_000) await call(url, "sandbox_fast_forward", { delta_height: Math.min(left, 10_000) });
  return blocks / ((performance.now() - t) / 1000);
}

/** A transfer from alice committed now; returns its hash and block height. */
async function transfer(url: string): Promise<{ hash: string; height: number }> {
  const key = devKeyPair(ALICE);
  const ak = await call(url, "query", { request_type: "view_access_key", finality: "optimistic", account_id: ALICE, public_key: key.publicKeyString });
  const head = await call(url, "block", { finality: "final" });
  const signed = signTransaction(
    { version: 0, signerId: ALICE, publicKey: key.publicKey, nonce: BigInt(ak.nonce) + 1n, receiverId: "bob.test.near", blockHash: base58Decode(head.header.hash), actions: [{ type: "Transfer", deposit: 1n }] },
    key,
  );
  const result = await call(url, "broadcast_tx_commit", [Buffer.from(encodeSignedTransaction(signed)).toString("base64")]);
  const block = await call(url, "block", { block_id: result.transaction_outcome.block_hash });
  return { hash: result.transaction.hash, height: block.header.height };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Median ms of `samples` calls each of `a(i)` and `b(i)`, alternated (background work, such as the REST index catching up, hits both alike). */
async function pairedLatency(samples: number, a: (i: number) => Promise<unknown>, b: (i: number) => Promise<unknown>): Promise<[number, number]> {
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < samples; i++) {
    let t = performance.now();
    await a(i);
    ta.push(performance.now() - t);
    t = performance.now();
    await b(i);
    tb.push(performance.now() - t);
  }
  return [median(ta), median(tb)];
}

export async function chainLengthBench(options: { quick: boolean; work: string; blocks?: number | undefined }): Promise<void> {
  const total = options.blocks ?? (options.quick ? 20_000 : 100_000);
  const tenth = total / 10;
  const dir = join(options.work, `chain-length-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(options.work, { recursive: true });
  console.log(`\nchain length (one data dir, empty blocks by sandbox_fast_forward, ${total} blocks)`);
  try {
    let server = await startServe(dir);
    const early = await transfer(server.url);
    const [firstRate, anonAtTenth] = await lowestAnonDuring(server.child.pid!, () => fastForward(server.url, tenth));
    console.log(`  ... ${tenth} blocks at ${firstRate.toFixed(0)}/s, ${anonAtTenth.toFixed(1)} MiB anonymous`);
    await stop(server);
    server = await startServe(dir);
    const restartAtTenth = server.firstAnswerMs;
    const resumedAt: number = (await call(server.url, "block", { finality: "optimistic" })).header.height;
    await fastForward(server.url, total - tenth - resumedAt);
    // The last phase runs in a fresh process too, as the first did: both measure a process that
    // started and then produced `tenth` blocks, so only the chain's length differs.
    await stop(server);
    server = await startServe(dir);
    // Blocks per second compares production alone: the REST index's rebuild of every block after the restart runs first.
    const catchUpStarted = performance.now();
    await indexCaughtUp(server);
    const catchUpMs = performance.now() - catchUpStarted;
    const [lastRate, anonAtTotal] = await lowestAnonDuring(server.child.pid!, () => fastForward(server.url, tenth));
    const late = await transfer(server.url);
    const head: number = (await call(server.url, "block", { finality: "optimistic" })).header.height;
    console.log(`  ... ${head} blocks, the last ${tenth} at ${lastRate.toFixed(0)}/s, ${anonAtTotal.toFixed(1)} MiB anonymous`);
    await stop(server);

    server = await startServe(dir);
    const restartAtTotal = server.firstAnswerMs;
    const samples = options.quick ? 200 : 1000;
    const spread = 500;
    const archival = server.archival;
    const [oldBlocks, newBlocks] = await pairedLatency(
      samples,
      (i) => call(archival, "block", { block_id: 1 + (i % spread) }),
      (i) => call(archival, "block", { block_id: head - (i % spread) }),
    );
    const [oldTx, newTx] = await pairedLatency(
      samples,
      () => call(archival, "tx", { tx_hash: early.hash, sender_account_id: ALICE }),
      () => call(archival, "tx", { tx_hash: late.hash, sender_account_id: ALICE }),
    );
    const [status] = await pairedLatency(20, () => call(server.url, "status", []), async () => undefined);
    // Apart from the blocks-per-second phases, which a poller would slow down.
    const statusBlocks = options.quick ? 2_000 : 10_000;
    const [, worstStatus] = await worstStatusDuring(server.url, () => fastForward(server.url, statusBlocks));
    const reverts: number[] = [];
    for (let i = 0; i < 5; i++) {
      const { snapshot_id } = await call(server.url, "shardkit_snapshot", {});
      await call(server.url, "sandbox_fast_forward", { delta_height: 2 });
      const t = performance.now();
      await call(server.url, "shardkit_revert", { snapshot_id });
      reverts.push(performance.now() - t);
    }
    reverts.sort((a, b) => a - b);
    const revertMs = reverts[2]!;
    await stop(server);

    const f = (x: number, d = 2) => x.toFixed(d);
    console.log(`  anonymous memory   lowest ${f(anonAtTenth, 1)} MiB over the first ${tenth} blocks, ${f(anonAtTotal, 1)} MiB over the last: +${f(anonAtTotal - anonAtTenth, 1)} MiB (target <= 30)`);
    console.log(`  blocks per second  ${f(firstRate, 0)} over the first ${tenth}, ${f(lastRate, 0)} over the last: ${f(lastRate / firstRate)}x (target >= 0.9)`);
    console.log(`  restart            first answer ${f(restartAtTotal, 0)} ms at ${total} vs ${f(restartAtTenth, 0)} ms at ${tenth}: ${f(restartAtTotal / restartAtTenth)}x (target <= 1000 ms)`);
    console.log(`  REST index rebuild ${f(catchUpMs / 1000, 1)} s for ${total - tenth} blocks after the restart (the data dir keeps the index: only blocks it had not indexed)`);
    console.log(`  revert of 2 blocks ${f(revertMs, 1)} ms (status round trip ${f(status, 2)} ms; target <= 50 ms)`);
    console.log(`  status while fast-forwarding ${statusBlocks} more blocks: slowest round trip ${f(worstStatus, 1)} ms (target <= 50 ms)`);
    console.log(`  archival block     heights 1-${spread}: ${f(oldBlocks, 3)} ms, the ${spread} below the head: ${f(newBlocks, 3)} ms: ${f(oldBlocks / newBlocks)}x (target <= 1.2)`);
    console.log(`  archival tx        at height ${early.height}: ${f(oldTx, 3)} ms, at ${late.height}: ${f(newTx, 3)} ms: ${f(oldTx / newTx)}x (target <= 1.2)`);
  } finally {
    for (const child of live) child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const blocks = process.argv.find((a) => a.startsWith("--blocks="))?.slice("--blocks=".length);
  await chainLengthBench({ quick: process.argv.includes("--quick"), work: join(root, ".bench"), blocks: blocks === undefined ? undefined : Number(blocks) });
}
