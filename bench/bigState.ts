/**
 * Large state on disk (`npm run bench -- --only=bigstate`, or
 * `node --expose-gc --import tsx bench/bigState.ts [--sizes=1000,1000000] [--baseline=DIR] [--rounds=N]`).
 *
 * For each size a child process writes a synthetic genesis file (one contract holding N
 * entries: 32-byte sha256-derived keys, 32-byte values, records unsorted) and loads it into a
 * fresh data dir (streamed records, trie written to LMDB). Then, in a fresh process per
 * measurement (what `serve` does on restart: no state is rebuilt), the data dir is reopened and
 * 100-entry view_state pages are read from cursors spread over the contract at the head, with
 * the node cache at its default budget:
 * - cold: the first page from each cursor after the reopen (node cache empty; the OS page
 *   cache still holds the data file, which was just written);
 * - warm: wall and CPU time per page, LMDB loads (node cache misses) per page, entries per page;
 * - JS heap and RSS after a GC while the chain is open (serving).
 * Page latency is a ratio against the smallest size of the same run and variant (noisy machines).
 *
 * `--baseline=DIR` (`--bigstate-baseline=DIR` through bench/run.ts): DIR is another checkout of
 * shardkit (e.g. `git archive main | tar -x -C DIR`, node_modules linked); its src/ is measured
 * on the same data dirs, interleaved with this tree's, for an A/B in the same run.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { writeSyntheticGenesis } from "../src/chain/genesis/writeSyntheticGenesis.js";
import { Chain, type GenesisLoadProgress } from "../src/chain/node.js";

interface LoadResult {
  keys: number;
  fileMB: number;
  writeS: number;
  loadS: number;
  /** CPU seconds of the load (user + system), all threads: the sort and bucket workers run beside the loader. */
  loadCpuS: number;
  /** CPU seconds of the loader's own thread: about the wall time on an idle machine (the workers keep up). */
  mainCpuS: number;
  /** Wall seconds of each phase: reading the records (and sorting), building the tries, writing the nodes. */
  phasesS: [number, number, number];
  dataDirMB: number;
  /** Highest RSS of the loading process. */
  peakRssMB: number;
}

interface PageResult {
  reopenMs: number;
  /** First page from each cursor after the reopen: µs and LMDB loads per page. */
  coldPageUs: number;
  coldLoadsPerPage: number;
  /** Wall time per page: the fastest batch, and the median batch. */
  pageUs: number;
  pageMedianUs: number;
  /** CPU time (user + system) per page: the lowest batch, and the median batch. */
  pageCpuUs: number;
  pageCpuMedianUs: number;
  /** Node cache misses that read LMDB, per page (warm). */
  loadsPerPage: number;
  entriesPerPage: number;
  heapMB: number;
  rssMB: number;
  /** The part of the RSS that is not file pages (LMDB's map is file pages, reclaimable). */
  rssAnonMB: number;
}

const ACCOUNT = "bench.test.near";
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const repoRoot = join(import.meta.dirname, "..");

/** A memory figure of /proc/self/status, MiB. */
function statusMB(field: string): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync("/proc/self/status", "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

/** CPU seconds (user + system) of this process's main thread, from /proc (process.cpuUsage counts every thread). */
function mainThreadCpuS(): number {
  const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

function cpuUs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return used.user + used.system;
}

/** Writes (once) the genesis file of `keys` entries and loads it into `dataDir`. */
async function loadChild(keys: number, work: string, dataDir: string): Promise<LoadResult> {
  // The genesis file is kept in the work dir: written once per size (10M entries: ~1.6 GB).
  const file = join(work, `bigstate-${keys}.json`);
  let t = performance.now();
  if (!existsSync(file)) {
    await writeSyntheticGenesis(`${file}.tmp`, { keys, accountId: ACCOUNT });
    renameSync(`${file}.tmp`, file);
  }
  const writeS = (performance.now() - t) / 1000;
  gc();
  t = performance.now();
  const cpu = process.cpuUsage();
  const mainCpu = mainThreadCpuS();
  const started = t;
  const phaseStarts = new Map<string, number>();
  const onGenesisProgress = ({ phase }: GenesisLoadProgress) => {
    if (!phaseStarts.has(phase)) phaseStarts.set(phase, performance.now());
  };
  const loaded = await Chain.open({ genesisFile: file, dataDir, blockTimeMs: 0, onGenesisProgress });
  const ended = performance.now();
  const loadS = (ended - t) / 1000;
  const loadCpuS = cpuUs(cpu) / 1e6;
  const mainCpuS = mainThreadCpuS() - mainCpu;
  const tries = phaseStarts.get("tries") ?? ended;
  const nodes = phaseStarts.get("nodes") ?? ended;
  const phasesS: [number, number, number] = [(tries - started) / 1000, (nodes - tries) / 1000, (ended - nodes) / 1000];
  const peakRssMB = statusMB("VmHWM");
  loaded.produceBlock();
  await loaded.close();
  return { keys, fileMB: statSync(file).size / 1e6, writeS, loadS, loadCpuS, mainCpuS, phasesS, dataDirMB: statSync(join(dataDir, "data.mdb")).size / 1e6, peakRssMB };
}

/** Reopens `dataDir` with the chain code of the checkout at `srcRoot` and reads pages. */
async function pagesChild(dataDir: string, srcRoot: string): Promise<PageResult> {
  const at = (path: string) => pathToFileURL(join(srcRoot, path)).href;
  const { Chain: ChainOf } = (await import(at("src/chain/node.js"))) as typeof import("../src/chain/node.js");
  const { LmdbChainStore } = (await import(at("src/chain/store/LmdbChainStore.js"))) as typeof import("../src/chain/store/LmdbChainStore.js");
  gc();
  let t = performance.now();
  const chainStore = LmdbChainStore.open(dataDir);
  const chain = await ChainOf.open({ chainStore, blockTimeMs: 0 });
  const reopenMs = performance.now() - t;
  const loads = () => chainStore.stateStore().cacheStats().diskReads;
  const block = chain.head();
  // Cursors spread evenly over the first 3/4 of the key space (keys are sha256-derived, so over
  // the contract), so every page holds 100 entries at 1,000 entries too (cursors up to the end
  // made 10% of the small contract's pages short); made up, not found by a scan, so the bench
  // reads no more of the state than the pages do.
  const cursors = Array.from({ length: 64 }, (_, i) => Uint8Array.of(i * 3, 0x80));
  const page = (i: number) => chain.at(block).contractState(ACCOUNT, { prefix: new Uint8Array(), limit: 100, afterKey: cursors[i % cursors.length]! }).values.length;

  let loaded = loads();
  t = performance.now();
  for (let i = 0; i < cursors.length; i++) page(i);
  const coldPageUs = ((performance.now() - t) * 1000) / cursors.length;
  const coldLoadsPerPage = (loads() - loaded) / cursors.length;

  for (let i = 0; i < 2_000; i++) page(i);
  // Batches of 1,000 pages: the fastest batch is the one least disturbed by other processes
  // (shared, loaded machines); the median is reported beside it.
  const batches = 12;
  const batch = 1_000;
  const wall: number[] = [];
  const cpuTimes: number[] = [];
  let entries = 0;
  loaded = loads();
  for (let b = 0; b < batches; b++) {
    const cpu = process.cpuUsage();
    t = performance.now();
    for (let i = 0; i < batch; i++) entries += page(b * batch + i);
    wall.push(((performance.now() - t) * 1000) / batch);
    cpuTimes.push(cpuUs(cpu) / batch);
  }
  const rounds = batches * batch;
  const loadsPerPage = (loads() - loaded) / rounds;
  gc();
  const mem = process.memoryUsage();
  const result: PageResult = {
    reopenMs,
    coldPageUs,
    coldLoadsPerPage,
    pageUs: Math.min(...wall),
    pageMedianUs: median(wall),
    pageCpuUs: Math.min(...cpuTimes),
    pageCpuMedianUs: median(cpuTimes),
    loadsPerPage,
    entriesPerPage: entries / rounds,
    heapMB: mem.heapUsed / 2 ** 20,
    rssMB: mem.rss / 2 ** 20,
    rssAnonMB: statusMB("RssAnon"),
  };
  await chain.close();
  return result;
}

function runChild(args: string[]): unknown {
  const out = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", fileURLToPath(import.meta.url), ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 20,
    stdio: ["ignore", "pipe", "inherit"],
  });
  return JSON.parse(out);
}

const load = () => loadavg().map((l) => l.toFixed(1)).join(" ");
const pad = (s: string, n: number) => s.padStart(n);

export async function bigStateBench(options: { sizes: readonly number[]; work: string; baseline?: string | undefined; rounds?: number | undefined }): Promise<void> {
  const variants = [{ name: "this tree", root: repoRoot }, ...(options.baseline === undefined ? [] : [{ name: "baseline", root: options.baseline }])];
  const rounds = options.rounds ?? 1;
  console.log(`\nbigstate: genesis contract of N entries into a data dir, reopen, 100-entry view_state pages (sizes ${options.sizes.join(", ")})`);
  if (options.baseline !== undefined) console.log(`    A/B: this tree vs ${options.baseline}, ${rounds} interleaved round(s)`);
  console.log(`    load average at start ${load()}`);
  mkdirSync(options.work, { recursive: true });
  const scratch = mkdtempSync(join(options.work, "bigstate-"));
  try {
    const loads: LoadResult[] = [];
    const dirs: string[] = [];
    for (const keys of options.sizes) {
      const dataDir = join(scratch, `data-${keys}`);
      loads.push(runChild(["--load", String(keys), options.work, dataDir]) as LoadResult);
      dirs.push(dataDir);
    }
    console.log("       keys  file MB  write s  load s (records, tries, nodes)  CPU s (loader thread)  data MB  load peak RSS MiB");
    for (const r of loads) {
      console.log(`${pad(String(r.keys), 11)}  ${pad(r.fileMB.toFixed(0), 7)}  ${pad(r.writeS.toFixed(1), 7)}  ${pad(`${r.loadS.toFixed(1)} (${r.phasesS.map((x) => x.toFixed(1)).join(", ")})`, 30)}  ${pad(`${r.loadCpuS.toFixed(1)} (${r.mainCpuS.toFixed(1)})`, 21)}  ${pad(r.dataDirMB.toFixed(0), 7)}  ${pad(r.peakRssMB.toFixed(0), 17)}`);
    }
    console.log(`    load average after loading ${load()}`);
    // page and CPU: fastest batch (median batch); ratios against the smallest size of the same round and variant.
    console.log(
      "  round  variant          keys  reopen ms  cold page µs  cold loads/page  page µs (median)  CPU µs/page (median)  loads/page  entries/page  heap MiB  RSS MiB  anon MiB  page vs smallest (median)  CPU vs smallest (median)",
    );
    for (let round = 1; round <= rounds; round++) {
      for (const variant of variants) {
        const pages = dirs.map((dir) => runChild(["--pages", dir, variant.root]) as PageResult);
        const base = pages[0]!;
        pages.forEach((r, i) => {
          const pair = (a: number, b: number, digits: number, width: number) => pad(`${a.toFixed(digits)} (${b.toFixed(digits)})`, width);
          console.log(
            `${pad(String(round), 7)}  ${variant.name.padEnd(9)}  ${pad(String(options.sizes[i]), 11)}  ${pad(r.reopenMs.toFixed(0), 9)}  ${pad(r.coldPageUs.toFixed(0), 12)}  ${pad(r.coldLoadsPerPage.toFixed(1), 15)}  ` +
              `${pair(r.pageUs, r.pageMedianUs, 1, 16)}  ${pair(r.pageCpuUs, r.pageCpuMedianUs, 1, 20)}  ${pad(r.loadsPerPage.toFixed(2), 10)}  ${pad(r.entriesPerPage.toFixed(1), 12)}  ` +
              `${pad(r.heapMB.toFixed(0), 8)}  ${pad(r.rssMB.toFixed(0), 7)}  ${pad(r.rssAnonMB.toFixed(0), 8)}  ` +
              `${pair(r.pageUs / base.pageUs, r.pageMedianUs / base.pageMedianUs, 2, 25)}  ${pair(r.pageCpuUs / base.pageCpuUs, r.pageCpuMedianUs / base.pageCpuMedianUs, 2, 24)}`,
          );
        });
      }
    }
    console.log(`    load average at the end ${load()}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const args = process.argv.slice(2);
  if (args[0] === "--load") {
    process.stdout.write(JSON.stringify(await loadChild(Number(args[1]), args[2]!, args[3]!)));
  } else if (args[0] === "--pages") {
    process.stdout.write(JSON.stringify(await pagesChild(args[1]!, args[2]!)));
  } else {
    const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
    const sizes = flag("sizes")?.split(",").map(Number) ?? [1_000, 1_000_000];
    const rounds = flag("rounds") === undefined ? undefined : Number(flag("rounds"));
    await bigStateBench({ sizes, work: join(repoRoot, ".bench"), baseline: flag("baseline"), rounds });
  }
}
