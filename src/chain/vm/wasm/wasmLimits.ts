/**
 * The parameters contract preparation and metering depend on. Defaults are nearcore's
 * latest-protocol values (core/parameters/res/runtime_configs/parameters.snap).
 */
export interface WasmLimits {
  /** Pages of the `env.memory` every prepared contract imports (64 KiB each). */
  readonly initialMemoryPages: number;
  readonly maxMemoryPages: number;
  /** Stack budget in bytes of frames and operand stacks (finite-wasm's accounting). */
  readonly maxStackHeight: number;
  /**
   * Entries of the type section (protocol 84 on: 1,024; PrepareError TooManyTypes). Optional,
   * like nearcore's `Option` limits: absent means unlimited.
   */
  readonly maxTypesPerContract?: number;
  /** Defined plus imported functions. */
  readonly maxFunctionsNumberPerContract: number;
  /** Declared locals over all functions (parameters not counted). */
  readonly maxLocalsPerContract: number;
  /**
   * Protocol 87 (`min_contract_size_per_local`: 2): besides the absolute limit, at most
   * ⌊code bytes / this⌋ declared locals (PrepareError TooManyLocals). Absent before 87.
   */
  readonly minContractSizePerLocal?: number;
  readonly maxTablesPerContract: number;
  /** Bound on each table's initial size. */
  readonly maxElementsPerContractTable: number;
  /** Bytes of one code section entry (locals and code). */
  readonly maxFunctionBodySize: number;
  /**
   * Checked when code is deployed (ContractSizeExceeded), not by preparation: nearcore's
   * PrepareError has no variant for it. Kept here so the host reads one limits object.
   */
  readonly maxContractSize: number;
  /** Gas per wasm instruction. */
  readonly regularOpCost: number;
  /** Bulk memory/table operations: base plus unit per byte or element. */
  readonly linearOpBaseCost: number;
  readonly linearOpUnitCost: number;
}

export const NEARCORE_WASM_LIMITS: WasmLimits = Object.freeze({
  initialMemoryPages: 1024,
  maxMemoryPages: 2048,
  maxStackHeight: 262_144,
  maxTypesPerContract: 1_024,
  maxFunctionsNumberPerContract: 10_000,
  maxLocalsPerContract: 1_000_000,
  maxTablesPerContract: 1,
  maxElementsPerContractTable: 10_000,
  maxFunctionBodySize: 196_608,
  maxContractSize: 4_194_304,
  regularOpCost: 822_756,
  linearOpBaseCost: 26_328_192,
  linearOpUnitCost: 822_756,
});
