/**
 * Large state on disk (`npm run bench -- --only=bigstate`, or
 * `node --expose-gc --import tsx bench/bigState.ts [--sizes=1000,1000000]`).
 *
 * For each size a child process writes a synthetic genesis file (one contract holding N
 * entries: 32-byte sha256-derived keys, 32-byte values, records unsorted), then:
 * - loads it into a fresh data dir (streamed records, trie written to LMDB in batches);
 * - closes and reopens the data dir (what `serve` does on restart: no state is rebuilt);
 * - measures 100-entry view_state pages from cursors spread over the contract at the
 *   head, with the node cache at its default budget;
 * - reports JS heap and RSS after a GC while the chain is open (serving).
 * Page latency is a ratio against the smallest size of the same run (noisy machines).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeSyntheticGenesis } from "../src/chain/genesis/writeSyntheticGenesis.js";
import { Chain } from "../src/chain/node.js";

interface Result {
  keys: number;
  fileMB: number;
  writeS: number;
  loadS: number;
  /** CPU seconds of the load (user + system): what the wall time is on an idle core. */
  loadCpuS: number;
  reopenMs: number;
  dataDirMB: number;
  heapMB: number;
  rssMB: number;
  /** The part of the RSS that is not file pages (LMDB's map is file pages, reclaimable). */
  rssAnonMB: number;
  peakRssMB: number;
  pageUs: number;
}

const ACCOUNT = "bench.test.near";
const gc = () => (globalThis as { gc?: () => void }).gc?.();

/** A memory figure of /proc/self/status, MiB. */
function statusMB(field: string): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync("/proc/self/status", "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Highest RSS of this process so far (MiB). */
function peakRssMB(): number {
  return statusMB("VmHWM");
}

function dirSizeMB(dir: string): number {
  return statSync(join(dir, "data.mdb")).size / 1e6;
}

async function child(keys: number, work: string): Promise<Result> {
  const dir = mkdtempSync(join(work, "bigstate-"));
  // The genesis file is kept in the work dir: written once per size (10M entries: ~1.6 GB).
  const file = join(work, `bigstate-${keys}.json`);
  const dataDir = join(dir, "data");
  try {
    let t = performance.now();
    if (!existsSync(file)) {
      await writeSyntheticGenesis(`${file}.tmp`, { keys, accountId: ACCOUNT });
      renameSync(`${file}.tmp`, file);
    }
    const writeS = (performance.now() - t) / 1000;
    const fileMB = statSync(file).size / 1e6;
    gc();
    t = performance.now();
    const cpu = process.cpuUsage();
    const loaded = await Chain.open({ genesisFile: file, dataDir, blockTimeMs: 0 });
    const loadS = (performance.now() - t) / 1000;
    const used = process.cpuUsage(cpu);
    const loadCpuS = (used.user + used.system) / 1e6;
    const loadPeak = peakRssMB();
    loaded.produceBlock();
    await loaded.close();
    gc();

    t = performance.now();
    const chain = await Chain.open({ dataDir, blockTimeMs: 0 });
    const reopenMs = performance.now() - t;
    const block = chain.head();
    // Cursors spread evenly over the key space (keys are sha256-derived, so over the contract):
    // made up, not found by a scan, so the bench reads no more of the state than the pages do.
    const cursors = Array.from({ length: 64 }, (_, i) => Uint8Array.of(i * 4, 0x80));
    const page = (i: number) => chain.viewState(block, ACCOUNT, { prefix: new Uint8Array(), limit: 100, afterKey: cursors[i % cursors.length]! });
    for (let i = 0; i < 2_000; i++) page(i);
    const rounds = 10_000;
    t = performance.now();
    for (let i = 0; i < rounds; i++) page(i);
    const pageUs = ((performance.now() - t) * 1000) / rounds;
    gc();
    const mem = process.memoryUsage();
    const result: Result = {
      keys,
      fileMB,
      writeS,
      loadS,
      loadCpuS,
      reopenMs,
      dataDirMB: dirSizeMB(dataDir),
      heapMB: mem.heapUsed / 2 ** 20,
      rssMB: mem.rss / 2 ** 20,
      rssAnonMB: statusMB("RssAnon"),
      peakRssMB: loadPeak,
      pageUs,
    };
    await chain.close();
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function bigStateBench(options: { sizes: readonly number[]; work: string }): Promise<void> {
  const self = fileURLToPath(import.meta.url);
  console.log(`\nbigstate: genesis contract of N entries into a data dir, reopen, 100-entry view_state pages (sizes ${options.sizes.join(", ")})`);
  const results: Result[] = [];
  for (const keys of options.sizes) {
    const out = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", self, "--child", String(keys), options.work], {
      encoding: "utf8",
      maxBuffer: 1 << 20,
      stdio: ["ignore", "pipe", "inherit"],
    });
    results.push(JSON.parse(out) as Result);
  }
  const base = results[0]!;
  console.log("       keys  file MB  write s  load s  load CPU s  reopen ms  data MB  heap MiB  RSS MiB  anon MiB  load peak RSS MiB  page µs  page vs smallest");
  for (const r of results) {
    console.log(
      `${String(r.keys).padStart(11)}  ${r.fileMB.toFixed(0).padStart(7)}  ${r.writeS.toFixed(1).padStart(7)}  ${r.loadS.toFixed(1).padStart(6)}  ${r.loadCpuS.toFixed(1).padStart(10)}  ` +
        `${r.reopenMs.toFixed(0).padStart(9)}  ${r.dataDirMB.toFixed(0).padStart(7)}  ${r.heapMB.toFixed(0).padStart(8)}  ${r.rssMB.toFixed(0).padStart(7)}  ${r.rssAnonMB.toFixed(0).padStart(8)}  ` +
        `${r.peakRssMB.toFixed(0).padStart(17)}  ${r.pageUs.toFixed(1).padStart(7)}  ${(r.pageUs / base.pageUs).toFixed(2).padStart(15)}x`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  if (args[0] === "--child") {
    process.stdout.write(JSON.stringify(await child(Number(args[1]), args[2]!)));
  } else {
    const sizes = args.find((a) => a.startsWith("--sizes="))?.slice("--sizes=".length).split(",").map(Number) ?? [1_000, 1_000_000];
    const work = join(import.meta.dirname, "..", ".bench");
    (await import("node:fs")).mkdirSync(work, { recursive: true });
    await bigStateBench({ sizes, work });
  }
}
