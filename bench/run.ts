/**
 * `npm run bench`: throughput, paging latency, memory and start-up, each reported as a ratio
 * against a baseline measured in the same run (these machines are noisy; absolute numbers
 * from different runs are not comparable). Servers are pinned to core 0, the load generator
 * to core 1. Uses the built server in dist/ (npm run bench builds first).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { Agent, request } from "node:http";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import autocannon from "autocannon";
import { devKeyPair } from "../src/chain/genesis/devKey.js";
import { writeSyntheticGenesis } from "../src/chain/genesis/writeSyntheticGenesis.js";
import { base58Decode } from "@shardkit/primitives/base58";
import { ed25519FromSeed, type Ed25519KeyPair } from "../src/chain/primitives/ed25519.js";
import { sha256 } from "../src/chain/primitives/sha256.js";
import { encodeSignedTransaction, signTransaction, type Action } from "../src/chain/transaction/index.js";
import { gatewayOverhead } from "./gateway.js";
import { gatewayIndexBench } from "./gatewayIndex.js";
import { historyBench } from "./history.js";
import { indexerCostPerBlock, restThroughput } from "./rest.js";
import { bigStateBench } from "./bigState.js";
import { chainLengthBench } from "./chainLength.js";
import { rateCapCost } from "./rateCap.js";
import { storageComparison } from "./storage.js";
import { vmCallCost } from "./vmCall.js";
import { workspacesBench } from "./workspaces.js";
import { forkBench } from "./fork.js";

const root = join(import.meta.dirname, "..");
const work = join(root, ".bench");
const cli = join(root, "dist", "cli", "main.js");
const quick = process.argv.includes("--quick");
const seconds = quick ? 2 : 5;
const rounds = quick ? 1 : 3;
const latencySamples = quick ? 300 : 2000;
/** `--only=throughput`, `--only=paging`, `--only=transactions`, `--only=rest`, `--only=indexer`, `--only=storage`, `--only=chainlength`, `--only=bigstate`, `--only=vm`, `--only=gateway`, `--only=gatewayindex`, `--only=history`, `--only=ratecap`, `--only=workspaces` or `--only=fork` runs one part. */
const only = process.argv.find((arg) => arg.startsWith("--only="))?.slice("--only=".length);

const hasTaskset = (() => {
  try {
    execFileSync("taskset", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
const pinned = (core: number, command: string, args: string[]): [string, string[]] =>
  hasTaskset ? ["taskset", ["-c", String(core), command, ...args]] : [command, args];

interface Running {
  child: ChildProcess;
  /** What the process announced: the first group of the awaited pattern (a URL, port or rate). */
  announced: string;
  startupMs: number;
}

/** Spawns a process on core 0 and waits for the stdout line matching `pattern`. */
export function startProcess(command: string, args: string[], pattern: RegExp): Promise<Running> {
  const started = performance.now();
  const [cmd, cmdArgs] = pinned(0, command, args);
  const child = spawn(cmd, cmdArgs, { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match) resolve({ child, announced: match[1]!, startupMs: performance.now() - started });
    });
    child.once("exit", (code) => reject(new Error(`${command} exited with ${code} before announcing itself:\n${output}`)));
  });
}

/** Extra node flags for the servers, e.g. BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof". */
const serverNodeArgs = process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [];

/** `--storage=disk`: servers keep their chain in a fresh data dir (default: --ephemeral), to compare the two. */
const onDisk = process.argv.includes("--storage=disk");
/** Data dirs of the servers started with --storage=disk, removed when the run ends. */
const dataDirs: string[] = [];
const storageArgs = (): string[] => {
  if (!onDisk) return ["--ephemeral"];
  const dir = join(work, `data-${process.pid}-${dataDirs.length}`);
  dataDirs.push(dir);
  return ["--data-dir", dir];
};

const startShardkit = (genesis?: string, blockTime = "0") =>
  startProcess(
    process.execPath,
    [...serverNodeArgs, cli, "serve", "--log-level", "warn", "--rpc-port", "0", "--archival-port", "0", "--block-time", blockTime, ...storageArgs(), ...(genesis ? ["--genesis", genesis] : [])],
    /regular RPC\s+(http:\/\/\S+)/,
  );

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

async function post(url: string, body: string): Promise<string> {
  const response = await fetch(url, { method: "POST", body, headers: { "content-type": "application/json" } });
  return response.text();
}

/** CPU time (user + system) a process has used so far, in microseconds. */
function cpuMicros(pid: number): number {
  // Fields after the ")" of the command name: state is field 3, utime 14 and stime 15.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  const ticksPerSecond = 100; // USER_HZ on Linux
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / ticksPerSecond;
}

interface LoadResult {
  /** Requests per second seen by the load generator. */
  rate: number;
  /** Server CPU time per request (µs): robust to other load on the machine. */
  cpuPerRequest: number;
}

async function load(url: string, body: string, pid: number): Promise<LoadResult> {
  const cpuBefore = cpuMicros(pid);
  const result = await autocannon({
    url,
    method: "POST",
    body,
    headers: { "content-type": "application/json" },
    connections: 50,
    pipelining: 1,
    duration: seconds,
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`load run had ${result.non2xx} non-2xx and ${result.errors} errors`);
  return { rate: result.requests.average, cpuPerRequest: (cpuMicros(pid) - cpuBefore) / result.requests.total };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function throughput(): Promise<void> {
  const server = await startShardkit();
  const request = JSON.stringify({
    jsonrpc: "2.0",
    id: "dontcare",
    method: "query",
    params: { request_type: "view_state", finality: "final", account_id: "kv.test.near", prefix_base64: "", limit: 10 },
  });
  const reply = await post(server.announced, request);
  if (!reply.includes('"values"')) throw new Error(`unexpected reply ${reply}`);
  const bodyFile = join(work, "bare-body.json");
  writeFileSync(bodyFile, reply);
  const bare = await startProcess(process.execPath, [join(import.meta.dirname, "bareServer.mjs"), bodyFile], /listening (\d+)/);
  const bareUrl = `http://127.0.0.1:${bare.announced}/`;
  try {
    await load(server.announced, request, server.child.pid!); // warm-up both
    await load(bareUrl, request, bare.child.pid!);
    const ours: LoadResult[] = [];
    const base: LoadResult[] = [];
    for (let i = 0; i < rounds; i++) {
      base.push(await load(bareUrl, request, bare.child.pid!));
      ours.push(await load(server.announced, request, server.child.pid!));
    }
    const rate = (runs: LoadResult[]) => median(runs.map((r) => r.rate));
    const cpu = (runs: LoadResult[]) => median(runs.map((r) => r.cpuPerRequest));
    console.log(`(a) view_state page of 10 entries (${Buffer.byteLength(reply)} B reply), 50 connections, ${rounds}x${seconds}s interleaved`);
    console.log(`    shardkit ${Math.round(rate(ours))} req/s, bare node:http ${Math.round(rate(base))} req/s, ratio ${(rate(ours) / rate(base)).toFixed(2)} (target >= 0.8)`);
    console.log(`    server CPU per request: shardkit ${cpu(ours).toFixed(1)} µs, bare ${cpu(base).toFixed(1)} µs, capacity ratio ${(cpu(base) / cpu(ours)).toFixed(2)}`);
  } finally {
    server.child.kill();
    bare.child.kill();
  }
}

async function pagingAndMemory(): Promise<void> {
  const small = join(work, "genesis-1k.json");
  const large = join(work, "genesis-1m.json");
  if (!existsSync(small)) await writeSyntheticGenesis(small, { keys: 1_000 });
  if (!existsSync(large)) {
    console.log("    writing a 1,000,000-key genesis (once, cached in .bench/)...");
    await writeSyntheticGenesis(large, { keys: 1_000_000 });
  }
  const smallServer = await startShardkit(small);
  const largeServer = await startShardkit(large);
  try {
    const page = (url: string) => {
      const after = randomBytes(32).toString("base64");
      return post(
        url,
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "query",
          params: { request_type: "view_state", finality: "final", account_id: "bench.test.near", prefix_base64: "", after_key_base64: after, limit: 100 },
        }),
      );
    };
    const timings = { small: [] as number[], large: [] as number[] };
    for (let i = 0; i < latencySamples + 200; i++) {
      for (const [name, url] of [["small", smallServer.announced], ["large", largeServer.announced]] as const) {
        const started = performance.now();
        const reply = await page(url);
        const elapsed = performance.now() - started;
        if (!reply.includes('"values"')) throw new Error(`unexpected reply ${reply.slice(0, 200)}`);
        if (i >= 200) timings[name].push(elapsed); // the first 200 rounds warm up
      }
    }
    const ratio = median(timings.large) / median(timings.small);
    console.log(`(b) median latency of a 100-entry page at a random cursor, ${latencySamples} samples each, interleaved`);
    console.log(`    1,000,000 keys ${median(timings.large).toFixed(3)} ms, 1,000 keys ${median(timings.small).toFixed(3)} ms, ratio ${ratio.toFixed(2)} (target <= 1.5)`);
    const largeRss = rssMiB(largeServer.child.pid!);
    const smallRss = rssMiB(smallServer.child.pid!);
    console.log(`(c) 1,000,000-key contract loaded: RSS ${largeRss.toFixed(0)} MiB (target <= 1024), start-up ${(largeServer.startupMs / 1000).toFixed(2)} s`);
    console.log(`    baseline 1,000-key contract: RSS ${smallRss.toFixed(0)} MiB, start-up ${(smallServer.startupMs / 1000).toFixed(2)} s (start-up ratio ${(largeServer.startupMs / smallServer.startupMs).toFixed(1)})`);
  } finally {
    smallServer.child.kill();
    largeServer.child.kill();
  }
}

/** One JSON-RPC call from the bench process; throws on an error answer. */
async function call(url: string, method: string, params: unknown): Promise<any> {
  const reply = JSON.parse(await post(url, JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })));
  if (reply.error !== undefined) throw new Error(`${method}: ${JSON.stringify(reply.error)}`);
  return reply.result;
}

/**
 * A lean keep-alive POST for the load phases: node:http costs the load generator much less
 * CPU per request than fetch, so the server, not the client, is what gets measured.
 */
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
function fastPost(url: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve(Buffer.concat(chunks).toString()));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Signs a V0 transaction with our own codec (the bench is a client here). */
function signed(signerId: string, key: Ed25519KeyPair, nonce: bigint, receiverId: string, blockHash: Uint8Array, actions: Action[]): string {
  const tx = { version: 0 as const, signerId, publicKey: key.publicKey, nonce, receiverId, blockHash, actions };
  return Buffer.from(encodeSignedTransaction(signTransaction(tx, key))).toString("base64");
}

/** ed25519 verifications per wall second and per CPU second, in a process pinned to the servers' core. */
async function verifyRates(): Promise<{ wall: number; cpu: number }> {
  const verifier = await startProcess(process.execPath, [join(import.meta.dirname, "verifyRate.mjs"), String(seconds)], /(verify \d+ cpu \d+)/);
  const [, wall, cpu] = /verify (\d+) cpu (\d+)/.exec(verifier.announced)!;
  return { wall: Number(wall), cpu: Number(cpu) };
}

/** Posts every batch (one sender each, in order, all senders at once); the server's CPU per transaction and each batch's last hash. */
async function submitAll(server: Running, batches: string[][]): Promise<{ cpuPerTx: number; hashes: string[] }> {
  const cpuBefore = cpuMicros(server.child.pid!);
  const hashes = await Promise.all(
    batches.map(async (batch) => {
      let hash = "";
      for (const tx of batch) {
        const reply = JSON.parse(await fastPost(server.announced, `{"jsonrpc":"2.0","id":1,"method":"broadcast_tx_async","params":["${tx}"]}`));
        if (typeof reply.result !== "string") throw new Error(`broadcast_tx_async: ${JSON.stringify(reply.error)}`);
        hash = reply.result;
      }
      return hash;
    }),
  );
  const total = batches.reduce((sum, batch) => sum + batch.length, 0);
  return { cpuPerTx: (cpuMicros(server.child.pid!) - cpuBefore) / total, hashes };
}

/** Server CPU per transaction of bareVerifyServer.mjs (parse, decode, verify: the floor of any admission) on the same transactions. */
async function bareVerifierCost(batches: string[][]): Promise<number> {
  const bare = await startProcess(process.execPath, [join(import.meta.dirname, "bareVerifyServer.mjs")], /listening (http:\/\/\S+)/);
  try {
    return (await submitAll(bare, batches)).cpuPerTx;
  } finally {
    bare.child.kill();
  }
}

async function transactions(): Promise<void> {
  // The baseline is measured before and after the accept phase and averaged: on a shared
  // machine the core's speed drifts between the two.
  const verifyBefore = await verifyRates();
  // No block comes during the accept phase (an hour's block time; at block time 0 every
  // arrival would get blocks at once), so it measures admission alone: decode, signature, state
  // checks, pool. The commit phase then produces the blocks with sandbox_fast_forward.
  const server = await startShardkit(undefined, "3600000");
  try {
    // Each sender gets its own key on alice, so its nonces arrive in order whatever the others do.
    const senders = 50;
    const perSender = quick ? 40 : 200;
    const alice = "alice.test.near";
    const keys = Array.from({ length: senders }, (_, i) => ed25519FromSeed(sha256(new TextEncoder().encode(`bench-key:${i}`))));
    const finalHash = async () => base58Decode((await call(server.announced, "block", { finality: "final" })).header.hash);
    const devKey = devKeyPair(alice);
    const devNonce = BigInt((await call(server.announced, "query", { request_type: "view_access_key", finality: "optimistic", account_id: alice, public_key: devKey.publicKeyString })).nonce);
    const addKeys = keys.map((key) => ({ type: "AddKey" as const, publicKey: key.publicKey, accessKey: { nonce: 0n, permission: "FullAccess" as const } }));
    // Blocks come only from sandbox_fast_forward: a few at a time until the transaction is FINAL.
    const untilFinal = async (hash: string) => {
      const status = async () => (await call(server.announced, "tx", { tx_hash: hash, sender_account_id: alice, wait_until: "NONE" })).final_execution_status;
      while ((await status()) !== "FINAL") await call(server.announced, "sandbox_fast_forward", { delta_height: 4 });
    };
    await untilFinal(await call(server.announced, "broadcast_tx_async", [signed(alice, devKey, devNonce + 1n, alice, await finalHash(), addKeys)]));
    const list = (await call(server.announced, "query", { request_type: "view_access_key_list", finality: "optimistic", account_id: alice })).keys as { public_key: string; access_key: { nonce: number } }[];
    const nonceOf = new Map(list.map((k) => [k.public_key, BigInt(k.access_key.nonce)]));
    const blockHash = await finalHash();
    const batches = keys.map((key) => {
      const start = nonceOf.get(key.publicKeyString)!;
      return Array.from({ length: perSender }, (_, j) => signed(alice, key, start + BigInt(j) + 1n, "bob.test.near", blockHash, [{ type: "Transfer", deposit: 1n }]));
    });
    const bobBefore = BigInt((await call(server.announced, "query", { request_type: "view_account", finality: "final", account_id: "bob.test.near" })).amount);
    const total = senders * perSender;

    const started = performance.now();
    const { cpuPerTx: cpuPerAccepted, hashes: lastHashes } = await submitAll(server, batches);
    const acceptedSeconds = (performance.now() - started) / 1000;
    for (const hash of lastHashes) await untilFinal(hash);
    const committedSeconds = (performance.now() - started) / 1000;
    const bobAfter = BigInt((await call(server.announced, "query", { request_type: "view_account", finality: "final", account_id: "bob.test.near" })).amount);
    if (bobAfter - bobBefore !== BigInt(total)) throw new Error(`expected ${total} transfers to land, bob got ${bobAfter - bobBefore}`);

    const accepted = total / acceptedSeconds;
    const floor = await bareVerifierCost(batches);
    const verifyAfter = await verifyRates();
    const verifyRate = Math.round((verifyBefore.wall + verifyAfter.wall) / 2);
    const verifyCpuRate = Math.round((verifyBefore.cpu + verifyAfter.cpu) / 2);
    console.log(`(d) ${total} signed transfers from ${senders} concurrent senders (alice -> bob, two shards)`);
    console.log(`    accepted via broadcast_tx_async ${Math.round(accepted)} tx/s, node:crypto ed25519 verify ${verifyRate}/s on the same core, ratio ${(accepted / verifyRate).toFixed(2)} (target >= 0.6)`);
    console.log(`    server CPU per accepted transaction ${cpuPerAccepted.toFixed(0)} µs (${Math.round(1e6 / cpuPerAccepted)} tx/s if the server were saturated); one verification ${(1e6 / verifyCpuRate).toFixed(0)} µs of CPU (${verifyCpuRate}/s), capacity ratio ${(1e6 / cpuPerAccepted / verifyCpuRate).toFixed(2)}`);
    console.log(`    floor: a bare node:http server that only parses, decodes and verifies the same transactions: ${floor.toFixed(0)} µs of CPU each, capacity ratio ${(1e6 / floor / verifyCpuRate).toFixed(2)}; shardkit's admission costs ${(cpuPerAccepted / floor).toFixed(2)}x that`);
    console.log(`    committed, from the first submission until all are FINAL (every deposit checked): ${Math.round(total / committedSeconds)} tx/s`);
  } finally {
    server.child.kill();
  }
}

async function main(): Promise<void> {
  mkdirSync(work, { recursive: true });
  if (!existsSync(cli)) throw new Error("dist/ is missing: run npm run build first");
  if (hasTaskset) execFileSync("taskset", ["-a", "-cp", "1", String(process.pid)], { stdio: "ignore" });
  else console.log("taskset not found: running unpinned (noisier)");
  console.log(`shardkit benchmarks, node ${process.version}${quick ? " (quick)" : ""}`);
  if (only === undefined || only === "throughput") await throughput();
  if (only === undefined || only === "paging") await pagingAndMemory();
  if (only === undefined || only === "transactions") await transactions();
  if (only === undefined || only === "rest") await restThroughput({ startProcess, cli, work, seconds, rounds, serverNodeArgs });
  if (only === undefined || only === "indexer") await indexerCostPerBlock({ quick });
  if (only === undefined || only === "storage") await storageComparison({ quick, work });
  if (only === undefined || only === "chainlength") await chainLengthBench({ quick, work });
  // `--bigstate-sizes=1000,10000000` for the long run quoted in the README.
  const bigSizes = process.argv.find((a) => a.startsWith("--bigstate-sizes="))?.slice("--bigstate-sizes=".length).split(",").map(Number);
  // `--bigstate-baseline=DIR`: another checkout measured on the same data dirs (A/B), `--bigstate-rounds=N` interleaved rounds.
  const bigFlag = (name: string) => process.argv.find((a) => a.startsWith(`--bigstate-${name}=`))?.slice(`--bigstate-${name}=`.length);
  const bigRounds = bigFlag("rounds") === undefined ? undefined : Number(bigFlag("rounds"));
  if (only === undefined || only === "bigstate") {
    await bigStateBench({ sizes: bigSizes ?? (quick ? [1_000, 100_000] : [1_000, 1_000_000]), work, baseline: bigFlag("baseline"), rounds: bigRounds });
  }
  if (only === undefined || only === "vm") await vmCallCost({ quick });
  if (only === undefined || only === "gateway") await gatewayOverhead({ startProcess, cli, seconds, rounds, latencySamples, serverNodeArgs });
  if (only === undefined || only === "gatewayindex") await gatewayIndexBench({ startProcess, cli, seconds, rounds, quick, serverNodeArgs });
  if (only === undefined || only === "history") await historyBench({ quick });
  if (only === undefined || only === "ratecap") await rateCapCost({ quick });
  if (only === undefined || only === "workspaces") await workspacesBench({ quick, root, cli });
  if (only === undefined || only === "fork") await forkBench({ quick, cli, startProcess });
}

const removeDataDirs = () => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
};
main().then(removeDataDirs, (error: unknown) => {
  removeDataDirs();
  console.error(error);
  process.exit(1);
});
