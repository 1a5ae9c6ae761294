/**
 * Memory vs on-disk chain store, in process (`npm run bench -- --only=storage`, or
 * `node --import tsx bench/storage.ts [--quick]`): the same work on a chain with the
 * in-memory store and on one with the LMDB store, rounds alternated, reported as ratios.
 * - transfers committed to FINAL per second (submit, produce blocks, every block committed);
 * - cost of one empty block (one flushed LMDB transaction on disk);
 * - reads at the head (view_account, a 10-entry view_state page): both serve from the tries;
 * - reopening the data dir (replay of the stored blocks).
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { devKeyPair } from "../src/chain/genesis/devKey.js";
import { Chain } from "../src/chain/node.js";
import { encodeSignedTransaction, signTransaction } from "../src/chain/transaction/index.js";

interface Figures {
  transfersPerSecond: number;
  emptyBlockMicros: number;
  readsPerSecond: number;
  blocks: number;
}

const ALICE = "alice.test.near";
const BOB = "bob.test.near";

async function measure(chain: Chain, transfers: number, perBlock: number): Promise<Figures> {
  const key = devKeyPair(ALICE);
  const start = chain.at(chain.head()).accessKey(ALICE, key.publicKeyString)!.nonce;
  const blockHash = chain.head().hashBytes;
  const signed = Array.from({ length: transfers }, (_, i) =>
    encodeSignedTransaction(
      signTransaction(
        { version: 0, signerId: ALICE, publicKey: key.publicKey, nonce: start + BigInt(i + 1), receiverId: BOB, blockHash, actions: [{ type: "Transfer", deposit: 1n }] },
        key,
      ),
    ),
  );
  const t0 = performance.now();
  let last = "";
  for (let i = 0; i < transfers; i += perBlock) {
    for (const tx of signed.slice(i, i + perBlock)) last = chain.submitTransaction(tx).hash;
    chain.produceBlock();
  }
  while (chain.transactionStatus(last)?.finalExecutionStatus !== "FINAL") chain.produceBlock();
  const transfersPerSecond = transfers / ((performance.now() - t0) / 1000);

  const empty = 200;
  const t1 = performance.now();
  for (let i = 0; i < empty; i++) chain.produceBlock();
  const emptyBlockMicros = ((performance.now() - t1) * 1000) / empty;

  const reads = 20_000;
  const t2 = performance.now();
  for (let i = 0; i < reads; i++) {
    const head = chain.blockByFinality("final");
    chain.at(head).account(BOB);
    chain.at(head).contractState("ft.test.near", { prefix: new Uint8Array(0), limit: 10 });
  }
  const readsPerSecond = (2 * reads) / ((performance.now() - t2) / 1000);
  return { transfersPerSecond, emptyBlockMicros, readsPerSecond, blocks: chain.head().height - chain.genesisBlock.height };
}

export async function storageComparison(options: { quick: boolean; work: string }): Promise<void> {
  const transfers = options.quick ? 1000 : 5000;
  const rounds = options.quick ? 1 : 3;
  console.log(`\nstorage: memory vs on-disk (LMDB) chain store, ${transfers} transfers in blocks of 100, ${rounds} round(s)`);
  const dir = join(options.work, `storage-${process.pid}`);
  const results: { memory: Figures[]; disk: Figures[]; reopenMs: number[] } = { memory: [], disk: [], reopenMs: [] };
  for (let round = 0; round < rounds; round++) {
    const memory = await Chain.open({ blockTimeMs: 0 });
    results.memory.push(await measure(memory, transfers, 100));
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const disk = await Chain.open({ blockTimeMs: 0, dataDir: dir });
    results.disk.push(await measure(disk, transfers, 100));
    const head = disk.head().hash;
    await disk.close();
    const t = performance.now();
    const reopened = await Chain.open({ blockTimeMs: 0, dataDir: dir });
    results.reopenMs.push(performance.now() - t);
    if (reopened.head().hash !== head) throw new Error("reopened chain has another head");
    await reopened.close();
  }
  rmSync(dir, { recursive: true, force: true });
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const pick = (kind: "memory" | "disk", f: keyof Figures) => median(results[kind].map((r) => r[f]));
  const tps = [pick("memory", "transfersPerSecond"), pick("disk", "transfersPerSecond")] as const;
  const block = [pick("memory", "emptyBlockMicros"), pick("disk", "emptyBlockMicros")] as const;
  const reads = [pick("memory", "readsPerSecond"), pick("disk", "readsPerSecond")] as const;
  console.log(`    transfers to FINAL: memory ${Math.round(tps[0])}/s, disk ${Math.round(tps[1])}/s, disk/memory ${(tps[1] / tps[0]).toFixed(2)} (target >= 0.9)`);
  console.log(`    empty block: memory ${block[0].toFixed(0)} µs, disk ${block[1].toFixed(0)} µs (one flushed commit per block)`);
  console.log(`    reads at the final block: memory ${Math.round(reads[0])}/s, disk ${Math.round(reads[1])}/s, disk/memory ${(reads[1] / reads[0]).toFixed(2)}`);
  console.log(`    reopen of ${pick("disk", "blocks")} stored blocks (replay): ${median(results.reopenMs).toFixed(0)} ms`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await storageComparison({ quick: process.argv.includes("--quick"), work: join(import.meta.dirname, "..", ".bench") });
}
