import type { RuntimeParameters } from "../runtime/parameters.js";
import { type PrepareOptions, prepareContract, type PrepareResult } from "./wasm/prepareContract.js";
import type { WasmLimits } from "./wasm/wasmLimits.js";

/** The limits preparation enforces, from the runtime parameter table. */
export function wasmLimitsOf(p: RuntimeParameters): WasmLimits {
  const w = p.wasm;
  return {
    initialMemoryPages: w.initialMemoryPages,
    maxMemoryPages: w.maxMemoryPages,
    maxStackHeight: Number(w.maxStackHeight),
    maxFunctionsNumberPerContract: w.maxFunctionsNumberPerContract,
    maxLocalsPerContract: w.maxLocalsPerContract,
    maxTablesPerContract: w.maxTablesPerContract,
    maxElementsPerContractTable: w.maxElementsPerContractTable,
    maxFunctionBodySize: w.maxFunctionBodySize,
    maxContractSize: Number(w.maxContractSize),
    regularOpCost: Number(w.regularOpCost),
    linearOpBaseCost: Number(w.linearOpBaseCost),
    linearOpUnitCost: Number(w.linearOpUnitCost),
  };
}

/**
 * Prepared (validated, memory-normalised, instrumented) contracts by code hash, so each code
 * is prepared and compiled once; a failed preparation is cached too (it is deterministic).
 * Least recently used entries leave first once `capacity` is reached.
 */
/** A prepared contract (or why it could not be prepared) and the length of its original code. */
export interface CachedContract {
  readonly result: PrepareResult;
  /** Bytes of the deployed code (the contract-loading fee is charged on them). */
  readonly codeLength: number;
}

export class ContractCache {
  private readonly entries = new Map<string, CachedContract>();

  constructor(
    private readonly limits: WasmLimits,
    private readonly capacity = 256,
    /** How contracts are metered (tests compare the instrumentation variants). */
    private readonly prepareOptions: PrepareOptions = {},
  ) {}

  /** The contract with hash `codeHash`; `code` is read (from state) only on a miss. */
  get(codeHash: string, code: () => Uint8Array): CachedContract {
    const hit = this.entries.get(codeHash);
    if (hit !== undefined) {
      this.entries.delete(codeHash);
      this.entries.set(codeHash, hit);
      return hit;
    }
    const bytes = code();
    const entry = { result: prepareContract(bytes, this.limits, this.prepareOptions), codeLength: bytes.length };
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(codeHash, entry);
    return entry;
  }

  get size(): number {
    return this.entries.size;
  }
}
