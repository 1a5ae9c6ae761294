/**
 * REST parts of `npm run bench`:
 * (e) GET /v1/account/{id}/full requests/s against a bare node:http server answering the same
 *     bytes, interleaved rounds (target ratio >= 0.7), plus server CPU per request;
 * (f) indexer cost per block: block production time with and without the indexer subscribed
 *     (it only queues, so the ratio should be ~1.0), and the indexer's own time per block
 *     against the 1 s block time.
 */
import type { ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Chain } from "../src/chain/node.js";
import { devKeyPair } from "../src/chain/genesis/devKey.js";
import { encodeSignedTransaction, signTransaction } from "../src/chain/transaction/index.js";
import { BlockIndexer } from "../src/indexer/BlockIndexer.js";
import { MemoryIndexStore } from "../src/indexer/MemoryIndexStore.js";
import { loadGet, median } from "./measure.js";

interface Running {
  child: ChildProcess;
  announced: string;
}

interface RestBenchContext {
  startProcess(command: string, args: string[], pattern: RegExp): Promise<Running>;
  cli: string;
  work: string;
  seconds: number;
  rounds: number;
  serverNodeArgs: string[];
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;


export async function restThroughput(ctx: RestBenchContext): Promise<void> {
  const server = await ctx.startProcess(
    process.execPath,
    [...ctx.serverNodeArgs, ctx.cli, "serve", "--rpc-port", "0", "--archival-port", "0", "--api-port", "0", "--block-time", "0", "--ephemeral", "--log-level", "warn"],
    /REST API\s+(http:\/\/\S+)\/v1/,
  );
  const url = `${server.announced}/v1/account/alice.test.near/full`;
  const reply = await (await fetch(url)).text();
  if (!reply.includes('"state":{')) throw new Error(`unexpected reply ${reply}`);
  const bodyFile = join(ctx.work, "bare-rest-body.json");
  writeFileSync(bodyFile, reply);
  const bare = await ctx.startProcess(process.execPath, [join(import.meta.dirname, "bareServer.mjs"), bodyFile], /listening (\d+)/);
  const bareUrl = `http://127.0.0.1:${bare.announced}/v1/account/alice.test.near/full`;
  try {
    await loadGet(url, server.child.pid!, ctx.seconds); // warm-up both
    await loadGet(bareUrl, bare.child.pid!, ctx.seconds);
    const ours: { rate: number; cpuPerRequest: number }[] = [];
    const base: { rate: number; cpuPerRequest: number }[] = [];
    for (let i = 0; i < ctx.rounds; i++) {
      base.push(await loadGet(bareUrl, bare.child.pid!, ctx.seconds));
      ours.push(await loadGet(url, server.child.pid!, ctx.seconds));
    }
    const rate = (runs: typeof ours) => median(runs.map((r) => r.rate));
    const cpu = (runs: typeof ours) => median(runs.map((r) => r.cpuPerRequest));
    console.log(`(e) REST GET /v1/account/alice.test.near/full (${Buffer.byteLength(reply)} B), 50 connections, ${ctx.rounds}x${ctx.seconds}s interleaved`);
    console.log(`    shardkit ${Math.round(rate(ours))} req/s, bare node:http ${Math.round(rate(base))} req/s, ratio ${(rate(ours) / rate(base)).toFixed(2)} (target >= 0.7)`);
    console.log(`    server CPU per request: shardkit ${cpu(ours).toFixed(1)} µs, bare ${cpu(base).toFixed(1)} µs, capacity ratio ${(cpu(base) / cpu(ours)).toFixed(2)}`);
  } finally {
    server.child.kill();
    bare.child.kill();
  }
}

/** Produces `blocks` blocks of `perBlock` transfers each; returns each produceBlock() duration (ms). */
function produce(chain: Chain, blocks: number, perBlock: number, nonces: Map<string, bigint>): number[] {
  const senders = ["alice.test.near", "bob.test.near", "carol.test.near"];
  const times: number[] = [];
  for (let b = 0; b < blocks; b++) {
    for (let i = 0; i < perBlock; i++) {
      const signer = senders[i % senders.length]!;
      const key = devKeyPair(signer);
      const nonce = (nonces.get(signer) ?? 0n) + 1n;
      nonces.set(signer, nonce);
      const tx = { version: 0 as const, signerId: signer, publicKey: key.publicKey, nonce, receiverId: senders[(i + 1) % senders.length]!, blockHash: chain.head().hashBytes, actions: [{ type: "Transfer" as const, deposit: 1n }] };
      chain.submitTransaction(encodeSignedTransaction(signTransaction(tx, key)));
    }
    const started = performance.now();
    chain.produceBlock();
    times.push(performance.now() - started);
  }
  return times;
}

async function nonceStart(chain: Chain): Promise<Map<string, bigint>> {
  const nonces = new Map<string, bigint>();
  for (const id of ["alice.test.near", "bob.test.near", "carol.test.near"]) {
    nonces.set(id, chain.at(chain.head()).accessKey(id, devKeyPair(id).publicKeyString)!.nonce);
  }
  return nonces;
}

export async function indexerCostPerBlock({ quick }: { quick: boolean }): Promise<void> {
  const blocks = quick ? 40 : 200;
  const perBlock = 60;
  const without = await Chain.open({ blockTimeMs: 0 });
  const withIndexer = await Chain.open({ blockTimeMs: 0 });
  const indexTimes: number[] = [];
  const indexer = new BlockIndexer(withIndexer, new MemoryIndexStore(), { onIndexed: (_h, ms) => indexTimes.push(ms) });
  indexer.start();
  const [n1, n2] = [await nonceStart(without), await nonceStart(withIndexer)];
  // Alternate block by block so that machine noise hits both chains alike; the indexer catches
  // up between blocks, outside the timed produceBlock calls.
  const plain: number[] = [];
  const indexed: number[] = [];
  for (let b = 0; b < blocks; b++) {
    const [first, second] = b % 2 === 0 ? [without, withIndexer] : [withIndexer, without];
    for (const chain of [first, second]) {
      const [time] = produce(chain, 1, perBlock, chain === without ? n1 : n2);
      (chain === without ? plain : indexed).push(time!);
    }
    await indexer.whenIndexed(withIndexer.head().height);
  }
  indexer.stop();
  console.log(`(f) indexer cost: ${blocks} blocks of ${perBlock} transfers on each of two dev chains, one followed by the indexer`);
  console.log(`    produceBlock median ${median(indexed).toFixed(2)} ms with the indexer subscribed, ${median(plain).toFixed(2)} ms without, ratio ${(median(indexed) / median(plain)).toFixed(2)} (target ~1.0: it only queues)`);
  console.log(`    indexing per block (off the production path) median ${median(indexTimes).toFixed(2)} ms, p99 ${percentile(indexTimes, 0.99).toFixed(2)} ms, ${((median(indexTimes) / 1000) * 100).toFixed(2)}% of the 1 s block time`);
}
