/**
 * In-process A/B of one contract VM call (runContract) on the FT contract: ft_transfer with
 * the previous instrumentation (`--old=bulkLoops,counterLocals`: those PrepareOptions set to
 * false; both by default, i.e. byte loops charged per iteration and every charge on the gas
 * global) against the default, alternating batches in one process so that the machine's load
 * hits both alike. Each side has its own contract cache and its own copy of the contract's
 * storage; the first calls' burnt gas, used gas, gas profile, logs and return data are compared
 * in every round.
 *
 * node --import tsx bench/vmCallAb.ts [--quick] [--batch=300] [--rounds=15] [--old=bulkLoops]
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { sha256 } from "../src/chain/primitives/sha256.js";
import { NEARCORE_RUNTIME_PARAMETERS } from "../src/chain/runtime/parameters.js";
import { ContractCache } from "../src/chain/vm/ContractCache.js";
import { MemoryPool } from "../src/chain/vm/MemoryPool.js";
import { runContract, type VmOutcome } from "../src/chain/vm/runContract.js";
import type { VmContext } from "../src/chain/vm/VmContext.js";
import type { VmExternal } from "../src/chain/vm/VmExternal.js";
import type { PrepareOptions } from "../src/chain/vm/wasm/prepareContract.js";
import { wasmLimitsOf } from "../src/chain/vm/wasmLimitsOf.js";

const PARAMS = NEARCORE_RUNTIME_PARAMETERS;
const FT = "ft.test.near";
const OWNER = "test.near";
const RECEIVER = "bob.test.near";
const enc = new TextEncoder();
const code = new Uint8Array(readFileSync(join(import.meta.dirname, "../contracts/build/ft.wasm")));
const codeHash = sha256(code);
const codeHashText = Buffer.from(codeHash).toString("hex");

const arg = (name: string, fallback: number): number => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found === undefined ? fallback : Number(found.slice(name.length + 3));
};

/** One side of the A/B: a contract cache with its instrumentation options and the contract's storage. */
class Side {
  readonly cache: ContractCache;
  readonly memories = new MemoryPool(PARAMS.wasm.initialMemoryPages, PARAMS.wasm.maxMemoryPages);
  readonly storage = new Map<string, Uint8Array>();
  storageUsage = 100n;
  private readonly ext: VmExternal;

  constructor(
    readonly name: string,
    options: PrepareOptions,
  ) {
    this.cache = new ContractCache(wasmLimitsOf(PARAMS), undefined, options);
    const storage = this.storage;
    this.ext = {
      storageGet: (k) => storage.get(Buffer.from(k).toString("latin1")),
      storageSet: (k, v) => void storage.set(Buffer.from(k).toString("latin1"), v.slice()),
      storageRemove: (k) => void storage.delete(Buffer.from(k).toString("latin1")),
      validatorStake: () => undefined,
      validatorTotalStake: () => 0n,
    };
  }

  call(method: string, args: unknown, predecessor: string, deposit: bigint): VmOutcome {
    const context: VmContext = {
      chainId: "localnet",
      currentAccountId: FT,
      signerAccountId: predecessor,
      signerAccountPk: new Uint8Array(33),
      predecessorAccountId: predecessor,
      input: enc.encode(JSON.stringify(args)),
      promiseResults: [],
      blockHeight: 10n,
      blockTimestamp: 1_700_000_000_000_000_000n,
      epochHeight: 1n,
      accountBalance: 10n ** 26n,
      accountLockedBalance: 0n,
      storageUsage: this.storageUsage,
      attachedDeposit: deposit,
      prepaidGas: 30n * 10n ** 12n,
      randomSeed: new Uint8Array(32),
      isView: false,
      outputDataReceivers: [],
      codeHash,
    };
    const outcome = runContract({
      codeHash: codeHashText,
      code: () => code,
      methodName: method,
      context,
      params: PARAMS,
      ext: this.ext,
      newDataId: () => sha256(Uint8Array.of(0)),
      cache: this.cache,
      memories: this.memories,
    });
    if (outcome.error !== undefined) throw new Error(`${this.name} ${method}: ${JSON.stringify(outcome.error)}`);
    this.storageUsage = outcome.storageUsage;
    return outcome;
  }
}

/** What must be equal between the sides. */
const observable = (o: VmOutcome): unknown => ({ burnt: o.burntGas, used: o.usedGas, profile: o.profile, logs: o.logs, returnData: o.returnData });

const median = (values: number[]): number => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const quick = process.argv.includes("--quick");
const batch = arg("batch", quick ? 100 : 300);
const rounds = arg("rounds", quick ? 5 : 15);
const oldFlag = process.argv.find((a) => a.startsWith("--old="))?.slice("--old=".length) ?? "bulkLoops,counterLocals";
const oldOptions: PrepareOptions = Object.fromEntries(oldFlag.split(",").map((name) => [name, false]));
const sides = [new Side(`previous (${oldFlag.split(",").map((n) => `${n}: false`).join(", ")})`, oldOptions), new Side("default", {})];

for (const side of sides) {
  side.call("new", { owner_id: OWNER, total_supply: "1000000000000000", metadata: { spec: "ft-1.0.0", name: "B", symbol: "B", decimals: 0 } }, FT, 0n);
  side.call("storage_deposit", { account_id: RECEIVER }, OWNER, 10n ** 22n);
}

/**
 * A batch of ft_transfer calls on one side: µs of this process's CPU per call (what other
 * processes on a shared machine disturb least); the first outcomes go to `outcomes`.
 */
function runBatch(side: Side, outcomes: unknown[]): number {
  const c0 = process.cpuUsage();
  for (let i = 0; i < batch; i++) {
    const o = side.call("ft_transfer", { receiver_id: RECEIVER, amount: "1", memo: "a memo long enough to be copied a few times" }, OWNER, 1n);
    if (i < 3) outcomes.push(observable(o));
  }
  const used = process.cpuUsage(c0);
  return (used.user + used.system) / batch;
}

const times: number[][] = [[], []];
for (let round = 0; round <= rounds; round++) {
  const seen: unknown[][] = [[], []];
  // Alternate which side goes first.
  const order = round % 2 === 0 ? [0, 1] : [1, 0];
  for (const s of order) {
    const us = runBatch(sides[s]!, seen[s]!);
    if (round > 0) times[s]!.push(us); // round 0 warms up (compile, tier up)
  }
  if (!isDeepStrictEqual(seen[0], seen[1])) throw new Error(`outcomes differ in round ${round}`);
}
const [a, b] = times.map(median) as [number, number];
const ratios = times[1]!.map((t, i) => t / times[0]![i]!);
console.log(`load average ${(await import("node:os")).loadavg().map((l) => l.toFixed(2)).join(" ")}`);
console.log(`ft_transfer through runContract, ${rounds} alternating rounds of ${batch} calls, outcomes equal (gas, profile, logs)`);
console.log(`  ${sides[0]!.name}: median ${a.toFixed(1)} µs of CPU per call`);
console.log(`  ${sides[1]!.name}: median ${b.toFixed(1)} µs of CPU per call`);
console.log(`  ratio new/old: ${(b / a).toFixed(3)} (median of per-round ratios ${median(ratios).toFixed(3)}, range ${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)})`);
