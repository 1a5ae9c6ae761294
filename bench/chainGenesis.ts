/**
 * Chain genesis + view_state paging benchmark.
 *
 *   node --expose-gc --import tsx bench/chainGenesis.ts            # 1,000 and 1,000,000 keys
 *   node --expose-gc --import tsx bench/chainGenesis.ts 1000 50000 # chosen sizes
 *
 * For each size a child process writes a synthetic genesis (one contract holding N keys of
 * 32 random-looking bytes with 32-byte values, records in unsorted order), opens a Chain on
 * it (streaming load + sort + trie build + hashing), then measures 100-item pages from
 * random cursors. Page latency is reported as a ratio against the smallest size measured in
 * the same run, since absolute numbers on these machines are noisy.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Chain } from "../src/chain/node.js";
import { writeSyntheticGenesis } from "../src/chain/genesis/writeSyntheticGenesis.js";

interface Result {
  keys: number;
  fileMB: number;
  writeMs: number;
  openMs: number;
  rssMB: number;
  heapMB: number;
  pageUs: number;
  pageItems: number;
}

const ACCOUNT = "bench.test.near";

async function child(keys: number): Promise<Result> {
  const dir = mkdtempSync(join(tmpdir(), "shardkit-bench-"));
  const file = join(dir, "genesis.json");
  try {
    let t = performance.now();
    await writeSyntheticGenesis(file, { keys, accountId: ACCOUNT });
    const writeMs = performance.now() - t;
    const fileMB = statSync(file).size / 1e6;
    (globalThis as { gc?: () => void }).gc?.();
    t = performance.now();
    const chain = await Chain.open({ genesisFile: file, blockTimeMs: 0 });
    const openMs = performance.now() - t;
    (globalThis as { gc?: () => void }).gc?.();
    const mem = process.memoryUsage();
    const block = chain.head();

    // Cursors: keys spread over the contract, taken from a first full pass of pages.
    const cursors: Uint8Array[] = [];
    let after: Uint8Array | undefined;
    for (let i = 0; i < 50; i++) {
      const page = chain.at(block).contractState(ACCOUNT, { prefix: new Uint8Array(), limit: Math.max(1, Math.floor(keys / 50)), ...(after && { afterKey: after }) });
      if (page.lastKey === undefined) break;
      after = page.lastKey;
      cursors.push(after);
    }
    const rounds = 20_000;
    for (let i = 0; i < 2_000; i++) chain.at(block).contractState(ACCOUNT, { prefix: new Uint8Array(), limit: 100, afterKey: cursors[i % cursors.length]! });
    t = performance.now();
    let items = 0;
    for (let i = 0; i < rounds; i++) {
      items += chain.at(block).contractState(ACCOUNT, { prefix: new Uint8Array(), limit: 100, afterKey: cursors[i % cursors.length]! }).values.length;
    }
    const pageUs = ((performance.now() - t) * 1000) / rounds;
    return { keys, fileMB, writeMs, openMs, rssMB: mem.rss / 1e6, heapMB: mem.heapUsed / 1e6, pageUs, pageItems: items / rounds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === "--child") {
    process.stdout.write(JSON.stringify(await child(Number(args[1]))));
    return;
  }
  const sizes = args.length > 0 ? args.map(Number) : [1_000, 1_000_000];
  const self = fileURLToPath(import.meta.url);
  const results: Result[] = [];
  for (const keys of sizes) {
    const out = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", self, "--child", String(keys)], {
      encoding: "utf8",
      maxBuffer: 1 << 20,
    });
    results.push(JSON.parse(out) as Result);
  }
  const base = results[0]!;
  console.log("keys        file MB  write ms  open ms  RSS MB  heap MB  page(100) µs  vs smallest");
  for (const r of results) {
    console.log(
      `${String(r.keys).padStart(9)}  ${r.fileMB.toFixed(1).padStart(7)}  ${r.writeMs.toFixed(0).padStart(8)}  ${r.openMs.toFixed(0).padStart(7)}  ` +
        `${r.rssMB.toFixed(0).padStart(6)}  ${r.heapMB.toFixed(0).padStart(7)}  ${r.pageUs.toFixed(1).padStart(12)}  ${(r.pageUs / base.pageUs).toFixed(2).padStart(10)}x`,
    );
  }
}

await main();
