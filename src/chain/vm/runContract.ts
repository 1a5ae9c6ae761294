import type { ReturnData } from "../runtime/ActionResult.js";
import type { GasProfileEntry } from "../runtime/executionOutcome.js";
import type { RuntimeParameters } from "../runtime/parameters.js";
import type { ContractCache } from "./ContractCache.js";
import type { VmError } from "./FunctionCallError.js";
import { HostErrorThrow } from "./HostError.js";
import { hostFunctions } from "./imports/hostFunctions.js";
import { IMPORT_SIGNATURES, signatureOf } from "./imports/importSignatures.js";
import type { MemoryPool } from "./MemoryPool.js";
import type { PendingReceipt, PromiseResume } from "./ReceiptManager.js";
import type { VmContext } from "./VmContext.js";
import type { VmExternal } from "./VmExternal.js";
import { VmLogic } from "./VmLogic.js";
import type { DataSegment, PreparedContract } from "./wasm/prepareContract.js";
import { wasmTrapOf } from "./wasmTrapOf.js";
import { wasmLimitsOf } from "./wasmLimitsOf.js";
import { exportedFunction, exportedGlobal, i32Value } from "./instanceExports.js";

/** One contract call: the code (by hash, read lazily), the method and everything it sees. */
export interface ContractRun {
  readonly codeHash: string;
  /** Reads the deployed code; called only when the cache does not hold it. */
  readonly code: () => Uint8Array;
  /** Bytes of the code when the caller has it at hand (else the cache's record of it). */
  readonly codeLength?: number;
  readonly methodName: string;
  readonly context: VmContext;
  readonly params: RuntimeParameters;
  readonly ext: VmExternal;
  /** The next data id of the receipt being executed (nearcore `generate_data_id`). */
  readonly newDataId: () => Uint8Array;
  readonly cache: ContractCache;
  /** Reusable guest memories (a fresh memory per call when absent). */
  readonly memories?: MemoryPool;
  /** Wall-clock budget in ms (default DEFAULT_TIME_LIMIT_MS; see VmLogic.checkClock). */
  readonly timeLimitMs?: number;
  /** A view's burnt-gas cap when lower than max_gas_burnt_view. */
  readonly viewGasLimit?: bigint;
}

/** nearcore `VMOutcome`: what the call did, or (with `error`) how far it got before aborting. */
export interface VmOutcome {
  /** Balance after deposits attached to promises (attached deposit included). */
  readonly balance: bigint;
  /** Deposits attached without leaving the balance (one_yocto_on_promise); 0 unless the call succeeded. */
  readonly subsidizedAmount: bigint;
  readonly storageUsage: bigint;
  readonly returnData: ReturnData;
  readonly burntGas: bigint;
  readonly usedGas: bigint;
  readonly logs: string[];
  readonly receipts: readonly PendingReceipt[];
  /** Data submitted by promise_yield_resume (PromiseResume receipts to the account itself). */
  readonly resumes: readonly PromiseResume[];
  /** nearcore's gas_profile of the call (empty when the VM never started). */
  readonly profile: readonly GasProfileEntry[];
  readonly error?: VmError;
}

function nop(run: ContractRun, error: VmError): VmOutcome {
  const c = run.context;
  return {
    balance: c.accountBalance + c.attachedDeposit,
    subsidizedAmount: 0n,
    storageUsage: c.storageUsage,
    returnData: { kind: "None" },
    burntGas: 0n,
    usedGas: 0n,
    logs: [],
    receipts: [],
    resumes: [],
    profile: [],
    error,
  };
}

function abort(l: VmLogic, error: VmError): VmOutcome {
  return {
    balance: l.balance,
    subsidizedAmount: 0n,
    storageUsage: l.storageUsage,
    returnData: { kind: "None" },
    burntGas: l.gas.burntGas,
    usedGas: l.gas.usedGas,
    logs: l.logs,
    receipts: [],
    resumes: [],
    profile: l.gas.gasProfile(),
    error,
  };
}

/** Turns what the guest threw into a VM error; anything else is a host bug and propagates. */
function guestError(e: unknown): VmError {
  if (e instanceof HostErrorThrow) return { kind: "HostError", error: e.hostError };
  const trap = wasmTrapOf(e);
  if (trap !== undefined) return { kind: "WasmTrap", trap };
  throw e;
}

type ImportObject = Record<string, Record<string, WebAssembly.ImportValue>>;

/**
 * The import object for a prepared contract over `l`, or the link error nearcore (wasmtime)
 * reports: an unknown name, or a known name imported with another signature. Only the
 * functions the contract imports are taken.
 */
function linkImports(contract: PreparedContract, l: VmLogic): ImportObject | string {
  const all = hostFunctions(l);
  const imports: ImportObject = { env: {} };
  for (const imp of WebAssembly.Module.imports(contract.module)) {
    if (imp.kind !== "function") continue;
    const fn = all[imp.module]?.[imp.name];
    // nearcore's wasmtime runner (`into_vm_error`) replaces wasmtime's UnknownImportError text with this.
    if (fn === undefined) return "unknown or invalid import";
    (imports[imp.module] ??= {})[imp.name] = fn;
  }
  for (const { name, type } of contract.importedFunctions) {
    if (IMPORT_SIGNATURES.env?.[name] !== signatureOf(type.params, type.results)) {
      return `incompatible import type for \`env::${name}\``;
    }
  }
  return imports;
}

/** A contract's host state and imports, linked once and reused by each call (`VmLogic.begin`). */
interface Linked {
  readonly logic: VmLogic;
  readonly imports: ImportObject | string;
  busy: boolean;
  /** Kept in linkedContracts (a stand-in made while the entry was busy is not). */
  readonly stored: boolean;
  /** An instance back in its initial state with its memory (wasm InstanceReuse), ready for the next call. */
  warm: { readonly instance: WebAssembly.Instance; readonly memory: WebAssembly.Memory; readonly dataEnd: number } | undefined;
}

/**
 * Links holding a warm instance, oldest first. Each holds a 64 MiB memory (mostly untouched
 * pages), so only a few are kept; an evicted one's memory goes back to the pool.
 */
const warmLinks = new Set<Linked>();
const WARM_INSTANCES = 8;
/** Warm instances are kept only when clearing what the call wrote is this cheap (a memset). */
const WARM_CLEAR_LIMIT = 1 << 20;
const linkedContracts = new WeakMap<PreparedContract, Map<RuntimeParameters, Linked>>();

function linked(contract: PreparedContract, run: ContractRun): Linked {
  let byParams = linkedContracts.get(contract);
  if (byParams === undefined) linkedContracts.set(contract, (byParams = new Map()));
  let entry = byParams.get(run.params);
  if (entry !== undefined && !entry.busy) {
    entry.logic.begin(run.context, run.ext, run.newDataId, run.timeLimitMs, run.viewGasLimit);
    return entry;
  }
  const logic = new VmLogic(run.context, run.params, run.ext, run.newDataId, run.timeLimitMs, run.viewGasLimit);
  const fresh: Linked = { logic, imports: linkImports(contract, logic), busy: false, stored: entry === undefined, warm: undefined };
  if (entry === undefined) byParams.set(run.params, fresh);
  return fresh;
}

/**
 * Runs a contract method as nearcore's wasmtime runner does: empty name → MethodEmptyName;
 * prepare (cached by code hash) → CompilationError; contract-loading fee (charged after
 * loading, `fix_contract_loading_cost: false`) → GasExceeded; export lookup →
 * MethodNotFound / MethodInvalidSignature; link → LinkError; then the call with fresh memory
 * and registers. Traps and host errors abort it (the gas burnt so far stays burnt); on
 * success unused gas goes to weighted function calls.
 */
export function runContract(run: ContractRun): VmOutcome {
  if (run.methodName.length === 0) return nop(run, { kind: "MethodResolveError", error: "MethodEmptyName" });
  // Prepared under the limits of this call's parameters (protocol 87's locals-per-size bound).
  const cached = run.cache.get(run.codeHash, run.code, wasmLimitsOf(run.params));
  const prepared = cached.result;
  if (!prepared.ok) {
    const l = new VmLogic(run.context, run.params, run.ext, run.newDataId, run.timeLimitMs, run.viewGasLimit);
    return abort(l, { kind: "CompilationError", error: { kind: "PrepareError", error: prepared.error } });
  }
  const link = linked(prepared.contract, run);
  try {
    return call(run, prepared.contract, cached.codeLength, link);
  } finally {
    link.logic.release();
  }
}

function call(run: ContractRun, contract: PreparedContract, codeLength: number, link: Linked): VmOutcome {
  const l = link.logic;

  try {
    l.gas.payPer("contract_loading_bytes", run.codeLength ?? codeLength);
    l.gas.payBase("contract_loading_base");
  } catch (e) {
    if (e instanceof HostErrorThrow) return abort(l, { kind: "HostError", error: { name: "GasExceeded" } });
    throw e;
  }

  const method = contract.exportedFunctions.get(run.methodName);
  if (method === undefined) return abort(l, { kind: "MethodResolveError", error: "MethodNotFound" });
  if (method.params.length > 0 || method.results.length > 0) return abort(l, { kind: "MethodResolveError", error: "MethodInvalidSignature" });

  const imports = link.imports;
  if (typeof imports === "string") return abort(l, { kind: "LinkError", msg: imports });
  const w = run.params.wasm;
  const warm = link.warm;
  if (warm !== undefined) {
    link.warm = undefined;
    warmLinks.delete(link);
  }
  // A pool made for other memory limits than this call's parameters is not used.
  const pool = run.memories?.fits(w.initialMemoryPages, w.maxMemoryPages) === true ? run.memories : undefined;
  const memory = warm?.memory ?? pool?.take() ?? new WebAssembly.Memory({ initial: w.initialMemoryPages, maximum: w.maxMemoryPages });
  l.attachMemory(memory);
  imports.env!.memory = memory;
  link.busy = true;
  let instance: WebAssembly.Instance | undefined;
  try {
    instance = warm?.instance ?? new WebAssembly.Instance(contract.module, imports);
    const counters = contract.gasGlobals;
    if (counters !== undefined) {
      l.attachGasGlobal(exportedGlobal(instance, counters.gasExport));
      if (counters.startExport !== undefined) exportedFunction(instance, counters.startExport)();
    }
    const fn = exportedFunction(instance, run.methodName);
    fn();
    l.syncWasmGas();
  } catch (e) {
    l.syncWasmGas(); // what ran before a trap stays burnt
    return abort(l, guestError(e));
  } finally {
    link.busy = false;
    imports.env!.memory = PLACEHOLDER_MEMORY;
    const written = writtenEnd(contract, instance, l);
    l.detachMemory();
    if (!keepWarm(link, contract, instance, memory, written, w.initialMemoryPages, pool)) pool?.give(memory, written);
  }

  if (!run.context.isView) {
    const unused = run.context.prepaidGas - l.gas.usedGas;
    if (unused > 0n && l.receipts.distributeUnusedGas(unused)) l.gas.prepay(unused);
  }
  return {
    balance: l.balance,
    subsidizedAmount: l.subsidizedAmount,
    storageUsage: l.storageUsage,
    returnData: l.returnData,
    burntGas: l.gas.burntGas,
    usedGas: l.gas.usedGas,
    logs: l.logs,
    receipts: l.receipts.receipts,
    resumes: l.receipts.resumes,
    profile: l.gas.gasProfile(),
  };
}

/**
 * Puts the instance back to its initial state (memory cleared below what the call wrote, data
 * segments written again, mutable globals reset) and keeps it for the link's next call; false
 * when it cannot be reused (the memory is then the caller's to return).
 */
function keepWarm(
  link: Linked,
  contract: PreparedContract,
  instance: WebAssembly.Instance | undefined,
  memory: WebAssembly.Memory,
  written: number | undefined,
  initialPages: number,
  pool: MemoryPool | undefined,
): boolean {
  const reuse = contract.instanceReuse;
  if (reuse === undefined || instance === undefined || !link.stored || written === undefined || written > WARM_CLEAR_LIMIT) return false;
  if (memory.buffer.byteLength !== initialPages * 65_536) return false; // grew
  const bytes = new Uint8Array(memory.buffer);
  const image = dataImage(contract, reuse.dataSegments);
  if (image === undefined) {
    bytes.fill(0, 0, written);
  } else {
    bytes.fill(0, 0, image.offset);
    bytes.set(image.bytes, image.offset);
    const imageEnd = image.offset + image.bytes.length;
    if (written > imageEnd) bytes.fill(0, imageEnd, written);
  }
  exportedFunction(instance, reuse.resetExport)();
  link.warm = { instance, memory, dataEnd: contract.writeTracking?.dataEnd ?? memory.buffer.byteLength };
  warmLinks.add(link);
  if (warmLinks.size > WARM_INSTANCES) {
    const oldest = warmLinks.values().next().value!;
    warmLinks.delete(oldest);
    const evicted = oldest.warm!;
    oldest.warm = undefined;
    pool?.give(evicted.memory, evicted.dataEnd); // holds only its data segments
  }
  return true;
}

/**
 * The data segments as one block (their span, zero between them, later segments over earlier
 * ones, as instantiation writes them): restoring it is one copy instead of one per segment
 * (the FT contract has 214).
 */
const dataImages = new WeakMap<PreparedContract, DataSegment | undefined>();
function dataImage(contract: PreparedContract, segments: readonly DataSegment[]): DataSegment | undefined {
  if (dataImages.has(contract)) return dataImages.get(contract);
  let image: DataSegment | undefined;
  if (segments.length > 0) {
    const start = Math.min(...segments.map((s) => s.offset));
    const end = Math.max(...segments.map((s) => s.offset + s.bytes.length));
    const bytes = new Uint8Array(end - start);
    for (const segment of segments) bytes.set(segment.bytes, segment.offset - start);
    image = { offset: start, bytes };
  }
  dataImages.set(contract, image);
  return image;
}

/**
 * How far the call can have written guest memory: the instrumentation's store mark, the data
 * segments and the host's writes; undefined (anywhere) when the contract is not tracked.
 */
function writtenEnd(contract: PreparedContract, instance: WebAssembly.Instance | undefined, l: VmLogic): number | undefined {
  const t = contract.writeTracking;
  // Instantiation failed part-way (a start function run by it may have stored before trapping): unknown.
  if (t === undefined || instance === undefined) return undefined;
  const mark = i32Value(exportedGlobal(instance, t.markExport)) >>> 0;
  return Math.max(mark + t.storeReach, t.dataEnd, l.hostWriteEnd);
}

/** Stands in for the guest memory between calls, so a pooled memory is never referenced twice. */
const PLACEHOLDER_MEMORY = new WebAssembly.Memory({ initial: 0 });
