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
 */
export class ContractCache {
  private readonly entries = new Map<string, { entry: CachedContract; bytes: number }>();
  private total = 0;
  /** The key last moved to (or added at) the end of `entries`. */
  private newest: string | undefined;
  private readonly files: PreparedContractFiles | undefined;

  constructor(
    private readonly limits: WasmLimits,
    private readonly maxBytes = DEFAULT_CONTRACT_CACHE_BYTES,
    /** How contracts are metered (tests compare the instrumentation variants). */
    private readonly prepareOptions: PrepareOptions = {},
    /** Where prepared contracts are kept on disk (none when undefined). */
    preparedDir?: string,
  ) {
    this.files = preparedDir === undefined ? undefined : new PreparedContractFiles(preparedDir, limits, prepareOptions);
  }

  /** The contract with hash `codeHash`; `code` is read (from state) only on a miss. */
  get(codeHash: string, code: () => Uint8Array): CachedContract {
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
    const entry = this.files?.load(source) ?? this.prepare(source);
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

  private prepare(source: Uint8Array): CachedContract {
    const entry = { result: prepareContract(source, this.limits, this.prepareOptions), codeLength: source.length };
    // A failure is not kept on disk: prepareContract also reports a one-off (a stack overflow, memory) as one.
    if (entry.result.ok) this.files?.save(source, entry);
    return entry;
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
