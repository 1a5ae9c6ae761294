/**
 * Per-call cost of the contract VM: a view call on a cached contract (prepared once; a warm
 * instance is reset and run per call, see src/chain/vm/README.md) against an empty wasm call
 * (a contract whose method does nothing), both through Chain.callFunction in the same run; reported as calls per second
 * and as the ratio of their per-call times. Also: ft_transfer calls executed per second next
 * to plain Transfers per second (blocks applied in-process, no RPC), per wall and per CPU second,
 * with calls of an empty method beside them as the floor of any function call.
 *
 * Part `--only=vm` of `npm run bench`; alone: node --import tsx bench/vmCall.ts [--quick]
 *
 * Profiling the FT path alone: node --cpu-prof --import tsx bench/vmCall.ts --ft-only runs
 * only ft_transfer blocks (signing and submission happen outside `ftTransferBlocks`, so a
 * profile filtered to that function shows block production only). `--transfer-only` does the
 * same with plain Transfers (`transferBlocks`), for the other side of the comparison, and
 * `--noop-only` with calls of an empty method (`noopBlocks`), the floor of any function call.
 *
 * Memory: node --expose-gc --import tsx bench/vmCall.ts --retained prints the heap the chain
 * keeps per transaction of each kind.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Chain } from "../src/chain/node.js";
import { devKeyPair } from "../src/chain/genesis/devKey.js";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import { encodeSignedTransaction, signTransaction, type Action } from "../src/chain/transaction/index.js";

const root = join(import.meta.dirname, "..");
const TGAS = 10n ** 12n;
const enc = new TextEncoder();

// An empty method: `(module (memory 1) (func (export "noop")))`, hand-assembled to avoid a wabt dependency here.
const EMPTY = Uint8Array.from([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 5, 3, 1, 0, 1, 7, 8, 1, 4, 110, 111, 111, 112, 0, 0, 10, 4, 1, 2, 0, 11,
]);

const nonces = new Map<string, bigint>();
function tx(chain: Chain, signer: string, receiver: string, actions: Action[]): Uint8Array {
  const key = devKeyPair(signer);
  const id = signer;
  const state = chain.at(chain.head()).accessKey(signer, formatPublicKey(key.publicKey))?.nonce ?? 0n;
  const nonce = (nonces.get(id) ?? state) + 1n;
  nonces.set(id, nonce);
  return encodeSignedTransaction(signTransaction({ version: 0, signerId: signer, publicKey: key.publicKey, nonce, receiverId: receiver, blockHash: chain.head().hashBytes, actions }, key));
}

function settle(chain: Chain, blocks = 4): void {
  for (let i = 0; i < blocks; i++) chain.produceBlock();
}

function rate(seconds: number, fn: () => void): number {
  for (let i = 0; i < 50; i++) fn(); // warm up (compile, tier up)
  let n = 0;
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    fn();
    n++;
  }
  return n / seconds;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export interface VmCallResult {
  ftViewPerSecond: number;
  emptyViewPerSecond: number;
  transfersPerSecond: number;
  ftTransfersPerSecond: number;
  /** Median over rounds of ft_transfer/s ÷ Transfers/s (wall time), and the same per CPU second. */
  ftToTransferRatio: number;
  ftToTransferCpuRatio: number;
  /**
   * The same ratios for calls of an empty method: what any function call costs in this
   * execution model (receipt, VM entry, contract loading, gas refund receipt) before the
   * contract does anything; ft_transfer's ratio cannot exceed it.
   */
  floorRatio: number;
  floorCpuRatio: number;
  /**
   * ft_transfer/s ÷ Transfers/s from the totals of all rounds (transactions over time, per
   * kind), and the same for the empty calls: see {@link throughputOfRounds}.
   */
  ftToTransferTotalRatio: number;
  floorTotalRatio: number;
}

/** One round: `count` transactions of one kind applied in `seconds`; per second of wall and of CPU time. */
interface Round {
  count: number;
  seconds: number;
  wall: number;
  cpu: number;
}

/**
 * Transactions per second over all rounds of one kind (their total count over their total
 * time). A round lasts 10-40 ms and a young-generation collection ~5 ms, so a round has one or
 * none and per-round rates are bimodal: a median drops the collections of the kind whose
 * rounds catch one less than half the time (the shorter rounds, plain Transfers) and keeps
 * them for the other, which biases the median of per-round ratios. Totals count every
 * collection where it happened, in proportion.
 */
function throughputOfRounds(rounds: readonly Round[]): number {
  let count = 0;
  let seconds = 0;
  for (const r of rounds) {
    count += r.count;
    seconds += r.seconds;
  }
  return count / seconds;
}

/** Runs the part and prints it; `quick` shortens every phase. */
export async function vmCallCost({ quick }: { quick: boolean }): Promise<VmCallResult> {
  const seconds = quick ? 1 : 3;
  const chain = await Chain.open({ blockTimeMs: 0 });
  const [a, b, c] = chain.devAccounts.map((d) => d.accountId);
  const call = (m: string, args: unknown, deposit = 0n, gas = 100n * TGAS): Action => ({ type: "FunctionCall", methodName: m, args: enc.encode(JSON.stringify(args)), gas, deposit });
  chain.submitTransaction(tx(chain, a!, a!, [{ type: "DeployContract", code: new Uint8Array(readFileSync(join(root, "contracts/build/ft.wasm"))) }]));
  chain.submitTransaction(tx(chain, b!, b!, [{ type: "DeployContract", code: EMPTY }]));
  settle(chain);
  chain.submitTransaction(tx(chain, a!, a!, [call("new", { owner_id: a, total_supply: "1000000000000", metadata: { spec: "ft-1.0.0", name: "B", symbol: "B", decimals: 0 } })]));
  settle(chain);
  chain.submitTransaction(tx(chain, c!, a!, [call("storage_deposit", {}, 10n ** 22n)]));
  settle(chain);

  const head = chain.head();
  const balanceArgs = enc.encode(JSON.stringify({ account_id: a }));
  const ftView = rate(seconds, () => {
    if (!chain.at(head).callFunction(a!, "ft_balance_of", balanceArgs).ok) throw new Error("ft_balance_of failed");
  });
  const emptyView = rate(seconds, () => {
    if (!chain.at(head).callFunction(b!, "noop", new Uint8Array()).ok) throw new Error("noop failed");
  });
  console.log(`(h) view calls through Chain.callFunction (in-process), ${seconds}s each`);
  console.log(`    ft_balance_of on the cached FT contract (reused instance, reset + run) ${(1000 / ftView).toFixed(3)} ms/call (${ftView.toFixed(0)}/s), empty method ${(1000 / emptyView).toFixed(3)} ms/call (${emptyView.toFixed(0)}/s), ratio ${(emptyView / ftView).toFixed(2)}`);

  /**
   * Transactions of one kind from one signer, applied in blocks: executed per second of wall
   * time and of this process's CPU time (the machine is shared: CPU time is what other
   * processes disturb least).
   */
  const applied = (count: number, make: () => Uint8Array): Round => {
    const txs = Array.from({ length: count }, make);
    for (const t of txs) chain.submitTransaction(t);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    settle(chain, 3);
    const cpu = process.cpuUsage(c0);
    const seconds = (performance.now() - t0) / 1000;
    return { count, seconds, wall: count / seconds, cpu: count / ((cpu.user + cpu.system) / 1e6) };
  };
  const n = quick ? 100 : 300;
  const rounds = quick ? 3 : 30;
  // Steady state takes ~6 rounds of each kind: until then ft_transfer rounds run 1.5-3x slower
  // (code tiering up, the young generation still growing), and they would weigh on the totals.
  const warmupRounds = quick ? 1 : 10;
  const plain: Round[] = [];
  const ft: Round[] = [];
  const noop: Round[] = [];
  const ftTx = (): Uint8Array => tx(chain, a!, a!, [call("ft_transfer", { receiver_id: c, amount: "1" }, 1n, 30n * TGAS)]);
  const plainTx = (): Uint8Array => tx(chain, c!, b!, [{ type: "Transfer", deposit: 1n }]);
  const noopTx = (): Uint8Array => tx(chain, c!, b!, [call("noop", {}, 1n, 30n * TGAS)]);
  for (let i = 0; i < warmupRounds; i++) {
    applied(n, plainTx);
    applied(n, ftTx);
    applied(n, noopTx);
  }
  for (let i = 0; i < rounds; i++) {
    plain.push(applied(n, plainTx));
    ft.push(applied(n, ftTx));
    noop.push(applied(n, noopTx));
  }
  // Each round pairs a Transfer block run with the ft_transfer run right after it: the median
  // of the paired ratios is steadier than the ratio of the medians when the load changes.
  const transfers = median(plain.map((r) => r.wall));
  const ftTransfers = median(ft.map((r) => r.wall));
  const ratio = median(ft.map((r, i) => r.wall / plain[i]!.wall));
  const cpuRatio = median(ft.map((r, i) => r.cpu / plain[i]!.cpu));
  console.log(`(i) ${n} transactions of one kind applied in blocks (in-process, no RPC), ${rounds} interleaved rounds after ${warmupRounds} of warm-up, medians`);
  console.log(
    `    ft_transfer calls ${ftTransfers.toFixed(0)}/s, plain Transfers ${transfers.toFixed(0)}/s, ratio ${ratio.toFixed(2)} (target >= 0.5); ` +
      `per CPU second: ${median(ft.map((r) => r.cpu)).toFixed(0)} vs ${median(plain.map((r) => r.cpu)).toFixed(0)}, ratio ${cpuRatio.toFixed(2)}`,
  );
  const floorRatio = median(noop.map((r, i) => r.wall / plain[i]!.wall));
  const floorCpuRatio = median(noop.map((r, i) => r.cpu / plain[i]!.cpu));
  console.log(
    `    floor: calls of an empty method (same prepaid gas, so the same refund receipt) ${median(noop.map((r) => r.wall)).toFixed(0)}/s, ` +
      `ratio ${floorRatio.toFixed(2)} (per CPU second ${floorCpuRatio.toFixed(2)}); ft_transfer costs ${(floorRatio / ratio).toFixed(2)}x an empty call`,
  );
  const plainTotal = throughputOfRounds(plain);
  const ftTotal = throughputOfRounds(ft);
  const noopTotal = throughputOfRounds(noop);
  const totalRatio = ftTotal / plainTotal;
  const floorTotalRatio = noopTotal / plainTotal;
  console.log(
    `    over all rounds (total transactions / total time, collections counted in proportion): ft_transfer ${ftTotal.toFixed(0)}/s, ` +
      `plain Transfers ${plainTotal.toFixed(0)}/s, ratio ${totalRatio.toFixed(2)} (target >= 0.5); empty calls ${noopTotal.toFixed(0)}/s, ratio ${floorTotalRatio.toFixed(2)}`,
  );
  return {
    ftViewPerSecond: ftView,
    emptyViewPerSecond: emptyView,
    transfersPerSecond: transfers,
    ftTransfersPerSecond: ftTransfers,
    ftToTransferRatio: ratio,
    ftToTransferCpuRatio: cpuRatio,
    floorRatio,
    floorCpuRatio,
    ftToTransferTotalRatio: totalRatio,
    floorTotalRatio,
  };
}

/** Produces `blocks` blocks: named so that a CPU profile can be filtered to block production. */
function ftTransferBlocks(chain: Chain, blocks: number): void {
  for (let i = 0; i < blocks; i++) chain.produceBlock();
}

/** The same for the plain Transfer rounds (a separate name, so that the two profiles are filtered alike). */
function transferBlocks(chain: Chain, blocks: number): void {
  for (let i = 0; i < blocks; i++) chain.produceBlock();
}

/** The same for the empty-method calls, the floor of any function call. */
function noopBlocks(chain: Chain, blocks: number): void {
  for (let i = 0; i < blocks; i++) chain.produceBlock();
}

export type Kind = "ft" | "transfer" | "noop";

/** A dev chain with the FT and empty contracts deployed (in memory, or in `dataDir` as `serve --data-dir` keeps it), and a maker of one kind's transactions. */
export async function chainFor(kind: Kind, dataDir?: string): Promise<{ chain: Chain; make: () => Uint8Array }> {
  const chain = await Chain.open({ blockTimeMs: 0, ...(dataDir !== undefined && { dataDir }) });
  const [a, b, c] = chain.devAccounts.map((d) => d.accountId);
  const call = (m: string, args: unknown, deposit = 0n, gas = 100n * TGAS): Action => ({ type: "FunctionCall", methodName: m, args: enc.encode(JSON.stringify(args)), gas, deposit });
  chain.submitTransaction(tx(chain, a!, a!, [{ type: "DeployContract", code: new Uint8Array(readFileSync(join(root, "contracts/build/ft.wasm"))) }]));
  chain.submitTransaction(tx(chain, b!, b!, [{ type: "DeployContract", code: EMPTY }]));
  settle(chain);
  chain.submitTransaction(tx(chain, a!, a!, [call("new", { owner_id: a, total_supply: "1000000000000", metadata: { spec: "ft-1.0.0", name: "B", symbol: "B", decimals: 0 } })]));
  settle(chain);
  chain.submitTransaction(tx(chain, c!, a!, [call("storage_deposit", {}, 10n ** 22n)]));
  settle(chain);
  const make = {
    ft: () => tx(chain, a!, a!, [call("ft_transfer", { receiver_id: c, amount: "1" }, 1n, 30n * TGAS)]),
    transfer: () => tx(chain, c!, b!, [{ type: "Transfer", deposit: 1n }]),
    noop: () => tx(chain, c!, b!, [call("noop", {}, 1n, 30n * TGAS)]),
  }[kind];
  return { chain, make };
}

const KIND_NAMES: Record<Kind, string> = { ft: "ft_transfer", transfer: "Transfer", noop: "empty-method call" };

/**
 * `--ft-only` / `--transfer-only` / `--noop-only`: rounds of one kind and nothing else, for `--cpu-prof`
 * and for A/B runs of two trees; prints µs of CPU per transaction, the median round and the
 * mean over all measured rounds (which counts every collection where it happened, see
 * {@link throughputOfRounds}).
 */
async function oneKind({ quick, kind }: { quick: boolean; kind: Kind }): Promise<void> {
  const { chain, make } = await chainFor(kind);
  const n = 300;
  const rounds = quick ? 5 : 40;
  const warmupRounds = quick ? 1 : 10;
  const produce = { ft: ftTransferBlocks, transfer: transferBlocks, noop: noopBlocks }[kind];
  const cpu: number[] = [];
  for (let i = 0; i < warmupRounds + rounds; i++) {
    const txs = Array.from({ length: n }, make);
    for (const t of txs) chain.submitTransaction(t);
    const c0 = process.cpuUsage();
    produce(chain, 3);
    const used = process.cpuUsage(c0);
    if (i >= warmupRounds) cpu.push((used.user + used.system) / n);
  }
  const mean = cpu.reduce((sum, x) => sum + x, 0) / cpu.length;
  console.log(
    `${KIND_NAMES[kind]} only: ${rounds} rounds of ${n} after ${warmupRounds} of warm-up, µs of CPU per transaction: median ${median(cpu).toFixed(1)}, mean ${mean.toFixed(1)}`,
  );
}

/**
 * `--retained` (run with `node --expose-gc`): the heap the chain keeps per transaction of each
 * kind (blocks, outcomes, receipts, records, state), after full collections before and after
 * rounds of 300. A repeatable figure, unlike CPU time on a shared machine.
 */
async function retained({ quick }: { quick: boolean }): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error("--retained needs node --expose-gc");
  const heapAfterGc = (): number => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };
  const n = 300;
  const rounds = quick ? 3 : 10;
  for (const kind of ["transfer", "noop", "ft"] as const) {
    const { chain, make } = await chainFor(kind);
    for (const t of Array.from({ length: n }, make)) chain.submitTransaction(t); // warm up
    settle(chain, 3);
    let batches: Uint8Array[][] | undefined = Array.from({ length: rounds }, () => Array.from({ length: n }, make));
    const before = heapAfterGc();
    for (const batch of batches) {
      for (const t of batch) chain.submitTransaction(t);
      settle(chain, 3);
    }
    batches = undefined; // the signed bytes are not what the chain keeps
    const kept = (heapAfterGc() - before) / (rounds * n);
    console.log(`${KIND_NAMES[kind]}: ${(kept / 1024).toFixed(1)} KiB of heap kept per transaction (${rounds} rounds of ${n})`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes("--quick");
  if (process.argv.includes("--ft-only")) await oneKind({ quick, kind: "ft" });
  else if (process.argv.includes("--transfer-only")) await oneKind({ quick, kind: "transfer" });
  else if (process.argv.includes("--noop-only")) await oneKind({ quick, kind: "noop" });
  else if (process.argv.includes("--retained")) await retained({ quick });
  else await vmCallCost({ quick });
}
