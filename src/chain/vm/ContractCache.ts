import { PreparedContractFiles } from "./PreparedContractFiles.js";
import { type PrepareOptions, prepareContract, type PrepareResult } from "./wasm/prepareContract.js";
import type { WasmLimits } from "./wasm/wasmLimits.js";

/** A prepared contract (or why it could not be prepared) and the length of its original code. */
export interface CachedContract {
  readonly result: PrepareResult;
  /** Bytes of the deployed code (the contract-loading fee is charged on them). */
  readonly codeLength: number;
}

/**
 * Engine machine code per byte of prepared wasm: V8 does not report a module's compiled size,
 * so the cache estimates it (its baseline and optimising tiers emit a few bytes per wasm byte).
 */
export const COMPILED_BYTES_PER_WASM_BYTE = 4;
/** What a failed preparation costs to keep: its error and the map entry. */
const FAILED_ENTRY_BYTES = 64;
export const DEFAULT_CONTRACT_CACHE_BYTES = 256 * 1024 * 1024;

/** A text naming limits by their values (remembered per object: calls pass the same few objects). */
const limitsKeys = new WeakMap<WasmLimits, string>();
function limitsKey(limits: WasmLimits): string {
  let key = limitsKeys.get(limits);
  if (key === undefined) limitsKeys.set(limits, (key = JSON.stringify(Object.entries(limits).sort(([a], [b]) => (a < b ? -1 : 1)))));
  return key;
}

/** Estimated memory one cached entry holds: the prepared binary plus its compiled module. */
export function cachedContractBytes(entry: CachedContract): number {
  if (!entry.result.ok) return FAILED_ENTRY_BYTES;
  return entry.result.contract.code.length * (1 + COMPILED_BYTES_PER_WASM_BYTE);
}

/**
 * Prepared (validated, memory-normalised, instrumented) contracts by code hash, so each code
 * is prepared and compiled once; a failed preparation is cached too (it is deterministic).
 * Bounded by estimated bytes, not by count (contracts range from bytes to megabytes): least
 * recently used entries leave first once `maxBytes` would be exceeded; the newest entry stays
 * even if it alone exceeds the bound, so a call never prepares its code twice. Given a
 * directory, a miss looks there before preparing, and files what it prepared
 * (PreparedContractFiles: shared with other processes, kept across restarts).
 *
 * Preparation depends on the limits of the call's parameters (protocol 87 bounds locals by the
 * code's size), so a call may name its limits: entries prepared under other limits than the
 * cache's own are kept apart (keyed by the limits' values and the code hash).
 */
export class ContractCache {
  private readonly entries = new Map<string, { entry: CachedContract; bytes: number }>();
  private total = 0;
  /** The key last moved to (or added at) the end of `entries`. */
  private newest: string | undefined;
  /** Files by the limits they were prepared under (each its own directory). */
  private readonly files = new Map<string, PreparedContractFiles>();

  constructor(
    private readonly limits: WasmLimits,
    private readonly maxBytes = DEFAULT_CONTRACT_CACHE_BYTES,
    /** How contracts are metered (tests compare the instrumentation variants). */
    private readonly prepareOptions: PrepareOptions = {},
    /** Where prepared contracts are kept on disk (none when undefined). */
    private readonly preparedDir?: string,
  ) {}

  /**
   * The contract with hash `codeHash` prepared under `limits` (the cache's own by default);
   * `code` is read (from state) only on a miss.
   */
  get(codeHash: string, code: () => Uint8Array, limits: WasmLimits = this.limits): CachedContract {
    const limitsText = limits === this.limits ? undefined : limitsKey(limits);
    const key = limitsText === undefined || limitsText === limitsKey(this.limits) ? codeHash : `${codeHash}@${limitsText}`;
    return this.entry(key, code, limits);
  }

  private entry(codeHash: string, code: () => Uint8Array, limits: WasmLimits): CachedContract {
    const hit = this.entries.get(codeHash);
    if (hit !== undefined) {
      // Least recently used first: move the hit to the end, unless it is there already.
      if (this.newest !== codeHash) {
        this.entries.delete(codeHash);
        this.entries.set(codeHash, hit);
        this.newest = codeHash;
      }
      return hit.entry;
    }
    const source = code();
    const files = this.filesFor(limits);
    const entry = files?.load(source) ?? this.prepare(source, limits, files);
    const bytes = cachedContractBytes(entry);
    for (const [oldest, old] of this.entries) {
      if (this.total + bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.total -= old.bytes;
    }
    this.entries.set(codeHash, { entry, bytes });
    this.newest = codeHash;
    this.total += bytes;
    return entry;
  }

  private prepare(source: Uint8Array, limits: WasmLimits, files: PreparedContractFiles | undefined): CachedContract {
    const entry = { result: prepareContract(source, limits, this.prepareOptions), codeLength: source.length };
    // A failure is not kept on disk: prepareContract also reports a one-off (a stack overflow, memory) as one.
    if (entry.result.ok) files?.save(source, entry);
    return entry;
  }

  private filesFor(limits: WasmLimits): PreparedContractFiles | undefined {
    if (this.preparedDir === undefined) return undefined;
    const key = limitsKey(limits);
    let files = this.files.get(key);
    if (files === undefined) this.files.set(key, (files = new PreparedContractFiles(this.preparedDir, limits, this.prepareOptions)));
    return files;
  }

  /** Number of cached contracts. */
  get size(): number {
    return this.entries.size;
  }

  /** Estimated bytes the cached contracts hold. */
  get bytes(): number {
    return this.total;
  }

  has(codeHash: string): boolean {
    return this.entries.has(codeHash);
  }
}
