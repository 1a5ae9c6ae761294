/**
 * Transaction history part of `npm run bench` (`--only=history`):
 * (r) POST /v0/account first page (limit 200, with its txs_count) for an account with 1,000,000
 *     indexed transactions vs one with 1,000, on the data-dir index (LMDB) and on PostgreSQL 15
 *     (test/support/postgresServer.ts: fsync off, as the tests run it). The stores are filled
 *     directly: 1,000 blocks of 1,000 transactions, each with a signer row and a receiver row
 *     (flags and ids as a transfer's), `busy.near` in 999,000 + 1,000 of them, `quiet.near` in
 *     1,000, interleaved over the same heights; transaction records carry no details (the
 *     account page never reads them). Timed: the REST handler and its store (parse, validate,
 *     read, serialise), in-process, interleaved rounds; target <= 1.3x.
 * (s) block production throughput with the history index on vs off: dev chains of the same
 *     kind, each in its own data dir with its index in `<dir>/history` (as `serve --data-dir`
 *     keeps them), one without the index, one followed by a WorkerHistoryIndexer (as `serve
 *     --data-dir` runs it: built and written by a worker thread into an LMDB store), one by the
 *     in-thread HistoryIndexer (for comparison); phases of rounds of 300 pre-signed
 *     transactions (Transfers, then ft_transfer) produced back to back while the index runs
 *     beside them, with backpressure (the loop waits once the index is more than two rounds
 *     behind); per chain the production throughput (target >= 0.75x), the lag left at the
 *     end of a phase and its catch-up time, and the end-to-end throughput (production +
 *     catch-up). Run with the process on every core, as `serve` runs (the bench pins itself to
 *     one core for its HTTP parts). Why this measure: bench/notes/history.md.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { NO_ROLE_FLAGS } from "../src/indexer/history/HistoryBuilder.js";
import type { AccountTxRow, BlockRow, HistoryReader, TransactionRecord } from "../src/indexer/history/HistoryStore.js";
import { LmdbHistoryStore } from "../src/indexer/history/LmdbHistoryStore.js";
import { HistoryIndexer, type HistoryFollower } from "../src/indexer/history/HistoryIndexer.js";
import { PostgresHistoryStore } from "../src/indexer/history/PostgresHistoryStore.js";
import { WorkerHistoryIndexer } from "../src/indexer/history/WorkerHistoryIndexer.js";
import type { Chain } from "../src/chain/node.js";
import { restHandlers } from "../src/server/rest/handlers.js";
import type { RestContext } from "../src/server/rest/RestContext.js";
import { startPostgres } from "../test/support/postgresServer.js";
import { mainThreadCpuMicros, median, withAllCores } from "./measure.js";
import { chainFor, type Kind } from "./vmCall.js";

const BUSY = "busy.near";
const QUIET = "quiet.near";
const PER_BLOCK = 1000;
const T0 = 1_763_000_000_000_000_000n;

const FLAGS_FALSE = { ...NO_ROLE_FLAGS, is_success: true };

/** A 44-character base58-looking hash of a position (the length of a real one), one per position. */
const hashOf = (height: number, index: number) => `${height}x${index}x`.padEnd(44, "1");

function blockRow(height: number, transactions: number): BlockRow {
  return {
    block_height: height,
    prev_block_height: height - 1,
    block_hash: `block${height}`.padEnd(44, "1"),
    prev_block_hash: `block${height - 1}`.padEnd(44, "1"),
    block_timestamp: (T0 + BigInt(height) * 1_000_000_000n).toString(),
    epoch_id: "11111111111111111111111111111111",
    next_epoch_id: "11111111111111111111111111111111",
    chunks_included: 4,
    author_id: "test.near",
    protocol_version: 78,
    gas_price: "100000000",
    block_ordinal: height,
    total_supply: "2000000000000000000000000000000000",
    num_transactions: transactions,
    num_receipts: transactions,
    gas_burnt: (BigInt(transactions) * 446_365_125_000n).toString(),
    tokens_burnt: (BigInt(transactions) * 44_636_512_500_000_000_000n).toString(),
  };
}

/** Transaction `index` of block `height`: busy.near sends, except the first of each block, quiet.near's to busy.near. */
function transaction(height: number, index: number): TransactionRecord {
  const hash = hashOf(height, index);
  const [signer, receiver] = index === 0 ? [QUIET, BUSY] : [BUSY, `r${(height * PER_BLOCK + index) % 5000}.near`];
  const at = { transaction_hash: hash, tx_block_height: height, tx_block_timestamp: (T0 + BigInt(height) * 1_000_000_000n).toString(), tx_index: index };
  const rows: AccountTxRow[] = [
    { account_id: signer, ...at, ...FLAGS_FALSE, is_signer: true, is_real_signer: true, is_any_signer: true, is_predecessor: true },
    { account_id: receiver, ...at, ...FLAGS_FALSE, is_receiver: true, is_real_receiver: true },
  ].sort((a, b) => (a.account_id < b.account_id ? -1 : 1));
  return {
    row: {
      transaction_hash: hash,
      signer_id: signer,
      tx_block_height: height,
      tx_index: index,
      tx_block_hash: `block${height}`.padEnd(44, "1"),
      tx_block_timestamp: at.tx_block_timestamp,
      last_block_height: height + 1,
      is_completed: true,
      shard_id: 0,
      receiver_id: receiver,
      signer_public_key: "ed25519:8pchsMqQRdU75ZfzgT4qb8xEvS8uqtgXedbumJEkizEp",
      priority_fee: 0,
      nonce: height * PER_BLOCK + index,
      is_relayed: false,
      real_signer_id: signer,
      real_receiver_id: receiver,
      is_success: true,
      gas_burnt: 446_365_125_000,
      tokens_burnt: "44636512500000000000",
    },
    details: {} as TransactionRecord["details"],
    accounts: rows,
  };
}

/** The LMDB index filled through its own `apply`, one block of 1,000 transactions at a time. */
function fillLmdb(dir: string, blocks: number): LmdbHistoryStore {
  const store = LmdbHistoryStore.open(dir);
  for (let height = 1; height <= blocks; height++) {
    const transactions = Array.from({ length: PER_BLOCK }, (_, index) => transaction(height, index));
    store.apply({ block: blockRow(height, PER_BLOCK), transactions, receipts: [] });
  }
  return store;
}

/** The PostgreSQL tables filled in bulk with the same rows (generate_series), then analysed. */
async function fillPostgres(pool: pg.Pool, blocks: number): Promise<PostgresHistoryStore> {
  const store = await PostgresHistoryStore.open(pool);
  const row = (account: string, flags: Record<string, boolean>) => {
    const all = { ...FLAGS_FALSE, ...flags };
    const fields = Object.entries(all).map(([flag, value]) => `'${flag}', ${value}`).join(", ");
    return `json_build_object('account_id', ${account}, 'transaction_hash', rpad(h || 'x' || i, 44, '1'), 'tx_block_height', h,
      'tx_block_timestamp', (${T0}::numeric + h::numeric * 1000000000)::text, 'tx_index', i, ${fields})`;
  };
  const columns = Object.keys(FLAGS_FALSE).join(", ");
  const values = (flags: Record<string, boolean>) => Object.keys(FLAGS_FALSE).map((f) => String({ ...FLAGS_FALSE, ...flags }[f as keyof typeof FLAGS_FALSE])).join(", ");
  const signer = { is_signer: true, is_real_signer: true, is_any_signer: true, is_predecessor: true };
  const receiver = { is_receiver: true, is_real_receiver: true };
  const insert = (account: string, flags: Record<string, boolean>, indexes: string) =>
    pool.query(`INSERT INTO hist_account_txs (account_id, tx_block_height, tx_index, ${columns}, row)
      SELECT ${account}, h, i, ${values(flags)}, ${row(account, flags)} FROM generate_series(1, ${blocks}) h, ${indexes}`);
  await insert(`'${BUSY}'`, signer, `generate_series(1, ${PER_BLOCK - 1}) i`);
  await insert(`'r' || ((h * ${PER_BLOCK} + i) % 5000) || '.near'`, receiver, `generate_series(1, ${PER_BLOCK - 1}) i`);
  await insert(`'${QUIET}'`, signer, "generate_series(0, 0) i");
  await insert(`'${BUSY}'`, receiver, "generate_series(0, 0) i");
  await pool.query("INSERT INTO hist_account_counts SELECT account_id, count(*) FROM hist_account_txs GROUP BY account_id");
  await pool.query("UPDATE hist_meta SET height = $1, first_height = 1", [blocks]);
  await pool.query("VACUUM ANALYZE hist_account_txs");
  await store.refreshHeight();
  return store;
}

/** One first page through the REST handler: ms, and the page's size and count (checked). */
async function firstPage(history: HistoryReader, accountId: string): Promise<{ ms: number; rows: number; count: number }> {
  const ctx = { history } as unknown as RestContext;
  const started = performance.now();
  const reply = await restHandlers.historyAccount(undefined as never, ctx, { account_id: accountId, limit: 200 });
  const text = JSON.stringify(reply.body);
  const ms = performance.now() - started;
  const body = reply.body as { account_txs?: unknown[]; txs_count?: number };
  if (reply.status !== 200 || text.length < 1000) throw new Error(`unexpected answer ${text.slice(0, 200)}`);
  return { ms, rows: body.account_txs!.length, count: body.txs_count! };
}

/** Interleaved rounds of first pages of both accounts: median ms each and their ratio. */
async function compare(label: string, history: HistoryReader, rounds: number, perRound: number, expected: { busy: number; quiet: number }): Promise<void> {
  const busy: number[] = [];
  const quiet: number[] = [];
  for (let i = 0; i < 20; i++) await firstPage(history, i % 2 ? BUSY : QUIET); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < perRound; i++) {
      const a = await firstPage(history, BUSY);
      const b = await firstPage(history, QUIET);
      if (a.count !== expected.busy || b.count !== expected.quiet || a.rows !== Math.min(200, a.count) || b.rows !== Math.min(200, b.count)) {
        throw new Error(`${label}: pages of ${a.rows}/${b.rows} rows counting ${a.count}/${b.count}`);
      }
      busy.push(a.ms);
      quiet.push(b.ms);
    }
  }
  const ratio = median(busy) / median(quiet);
  console.log(
    `    ${label}: ${expected.busy.toLocaleString("en")} rows ${median(busy).toFixed(3)} ms, ${expected.quiet.toLocaleString("en")} rows ${median(quiet).toFixed(3)} ms, ratio ${ratio.toFixed(2)} (target <= 1.3: ${ratio <= 1.3 ? "met" : "not met"})`,
  );
}

async function accountPages(quick: boolean): Promise<void> {
  const blocks = quick ? 100 : 1000;
  const expected = { busy: blocks * PER_BLOCK, quiet: blocks };
  const rounds = quick ? 3 : 5;
  const perRound = quick ? 50 : 200;
  console.log(`(r) /v0/account first page (limit 200, with txs_count) for ${expected.busy.toLocaleString("en")} vs ${expected.quiet.toLocaleString("en")} indexed transactions; handler + store in-process, median of ${rounds}x${perRound} interleaved`);
  const dir = mkdtempSync(join(tmpdir(), "shardkit-bench-history-"));
  try {
    let started = performance.now();
    const lmdb = fillLmdb(dir, blocks);
    console.log(`    data-dir (LMDB) filled through apply() in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await compare("data dir (LMDB)", lmdb, rounds, perRound, expected);
    await lmdb.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const postgres = await startPostgres();
  const pool = new pg.Pool({ connectionString: postgres.url, max: 2 });
  try {
    const started = performance.now();
    const store = await fillPostgres(pool, blocks);
    console.log(`    PostgreSQL 15 filled in bulk in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await compare("PostgreSQL", store, rounds, perRound, expected);
  } finally {
    await pool.end();
    postgres.destroy();
  }
}

/** Transactions a round submits before its blocks are produced. */
const ROUND = 300;
/** Blocks a round produces (its transactions included, their receipts and refunds executed). */
const BLOCKS_PER_ROUND = 3;
/** The lag the producing loop allows before it waits for the index (backpressure): two rounds. */
const MAX_LAG = 2 * BLOCKS_PER_ROUND;

/** One chain of (s) and what a phase on it measured. */
interface Side {
  readonly label: string;
  readonly chain: Chain;
  readonly make: () => Uint8Array;
  /** undefined: no index. */
  readonly history: HistoryFollower | undefined;
  transactions: number;
  /** Submitting and producing, with the index running beside it (and waited for only past MAX_LAG). */
  producing: number;
  /** From the phase's last block until the index has it. */
  catchingUp: number;
  /** Backpressure waits during production (included in `producing`). */
  waits: number;
  /** The lag at the end of each phase, in blocks. */
  readonly lags: number[];
  /** CPU µs of the main thread while producing (submission, production, the handoff to a worker). */
  mainCpu: number;
  /** CPU µs of the process's other threads (the history worker, GC and LMDB helpers), production and catch-up. */
  otherCpu: number;
}

/**
 * One phase on one chain: `rounds` rounds of ROUND pre-signed transactions submitted and
 * produced back to back, the index (if any) running concurrently; between rounds the loop
 * yields one event-loop turn (what a real producer does between blocks) and waits only if
 * the index is more than MAX_LAG blocks behind. Then the lag left and the time to index it.
 */
async function phase(side: Side, rounds: number, measured: boolean): Promise<void> {
  const batches = Array.from({ length: rounds }, () => Array.from({ length: ROUND }, side.make));
  const { chain, history } = side;
  let waits = 0;
  const cpu0 = process.cpuUsage();
  const main0 = mainThreadCpuMicros();
  const started = performance.now();
  for (const batch of batches) {
    for (const t of batch) chain.submitTransaction(t);
    for (let b = 0; b < BLOCKS_PER_ROUND; b++) chain.produceBlock();
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (history !== undefined && history.lag > MAX_LAG) {
      waits++;
      await history.whenLagAtMost(MAX_LAG);
    }
  }
  const produced = performance.now();
  const main = mainThreadCpuMicros() - main0;
  const lag = history?.lag ?? 0;
  await history?.whenIndexed(chain.head().height);
  const indexed = performance.now();
  const cpu = process.cpuUsage(cpu0);
  const other = cpu.user + cpu.system - (mainThreadCpuMicros() - main0);
  if (!measured) return;
  side.mainCpu += main;
  side.otherCpu += other;
  side.transactions += rounds * ROUND;
  side.producing += (produced - started) / 1000;
  side.catchingUp += (indexed - produced) / 1000;
  side.waits += waits;
  side.lags.push(lag);
}

/**
 * (s) on three chains of one kind: one without the index, one with the worker's (as `serve
 * --data-dir` runs it), one with the in-thread indexer over LMDB (what the worker replaced, for
 * comparison under the same load). Phases of `rounds` rounds, one chain at a time, rotating
 * (each chain in each position in turn), the first of each chain a warm-up; every phase ends
 * with its index caught up, so no chain's indexing runs during another's phase. Prints, per
 * chain: production throughput with the index running beside it (the figure of the target),
 * the lag left at the phases' ends and the time to index it, and the end-to-end throughput
 * (production + catch-up), each against the chain without the index.
 */
async function productionWithHistory(kind: Kind, quick: boolean): Promise<void> {
  const phases = quick ? 2 : 6;
  const rounds = quick ? 5 : 10;
  // Each chain in its own data dir, its history index in `<dir>/history`, as `serve --data-dir` keeps them.
  const dirs = [0, 1, 2].map(() => mkdtempSync(join(tmpdir(), "shardkit-bench-history-")));
  const side = async (label: string, dir: string, history: (chain: Chain) => Promise<HistoryFollower | undefined>): Promise<Side> => {
    const { chain, make } = await chainFor(kind, dir);
    return { label, chain, make, history: await history(chain), transactions: 0, producing: 0, catchingUp: 0, waits: 0, lags: [], mainCpu: 0, otherCpu: 0 };
  };
  const worker = await side("worker thread", dirs[0]!, (chain) => WorkerHistoryIndexer.open(chain, join(dirs[0]!, "history")));
  const thread = await side("in-thread indexer", dirs[1]!, async (chain) => new HistoryIndexer(chain, LmdbHistoryStore.open(join(dirs[1]!, "history"))));
  const sides = [await side("no index", dirs[2]!, async () => undefined), worker, thread];
  if (worker.history instanceof WorkerHistoryIndexer) worker.history.start();
  if (thread.history instanceof HistoryIndexer) thread.history.start();
  for (const s of sides) await s.history?.whenIndexed(s.chain.head().height);
  try {
    for (let p = 0; p < phases + 1; p++) {
      for (let i = 0; i < sides.length; i++) await phase(sides[(p + i) % sides.length]!, rounds, p > 0);
    }
  } finally {
    if (worker.history instanceof WorkerHistoryIndexer) await worker.history.close();
    if (thread.history instanceof HistoryIndexer) {
      thread.history.stop();
      await thread.history.store.close();
    }
    for (const s of sides) await s.chain.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
  const [off, ...on] = sides as [Side, Side, Side];
  const offRate = off.transactions / off.producing;
  const perTx = (micros: number, s: Side) => (micros / s.transactions).toFixed(0);
  console.log(
    `    ${kind === "ft" ? "ft_transfer" : "Transfer"}: ${offRate.toFixed(0)}/s without the index (${off.transactions} transactions in ${phases} phases of ${rounds} rounds; ` +
      `CPU µs per transaction: main thread ${perTx(off.mainCpu, off)}, other threads ${perTx(off.otherCpu, off)})`,
  );
  for (const s of on) {
    const rate = s.transactions / s.producing;
    const endToEnd = s.transactions / (s.producing + s.catchingUp);
    const ratio = rate / offRate;
    console.log(
      `      ${s.label}: ${rate.toFixed(0)}/s producing with the index beside it, ratio ${ratio.toFixed(2)}${s.label === "worker thread" ? ` (target >= 0.75: ${ratio >= 0.75 ? "met" : "not met"})` : ""}; ` +
        `lag at phase end ${Math.min(...s.lags)}-${Math.max(...s.lags)} blocks, caught up in ${((s.catchingUp * 1000) / phases).toFixed(0)} ms a phase; ` +
        `${s.waits} backpressure waits in ${phases * rounds} rounds; end to end ${endToEnd.toFixed(0)}/s, ratio ${(endToEnd / offRate).toFixed(2)}; ` +
        `CPU µs per transaction: main thread ${perTx(s.mainCpu, s)} (${(s.mainCpu / s.transactions / (off.mainCpu / off.transactions)).toFixed(2)}x), other threads ${perTx(s.otherCpu, s)}`,
    );
  }
}

export async function historyBench({ quick }: { quick: boolean }): Promise<void> {
  // `--production-only` skips (r) (its stores take minutes to fill) to measure (s) alone.
  if (!process.argv.includes("--production-only")) await accountPages(quick);
  console.log(
    `(s) block production throughput with the history index on vs off: rounds of ${ROUND} transactions, ${BLOCKS_PER_ROUND} blocks each, produced back to back with the index running beside them (waited for past ${MAX_LAG} blocks of lag), phases of one chain at a time ending with the index caught up`,
  );
  // The worker indexes beside production, so both need the cores `serve` has (the bench pins itself to one).
  await withAllCores(async () => {
    await productionWithHistory("transfer", quick);
    await productionWithHistory("ft", quick);
  });
}
