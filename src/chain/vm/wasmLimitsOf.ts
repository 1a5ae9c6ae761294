import type { RuntimeParameters } from "../runtime/parameters.js";
import type { WasmLimits } from "./wasm/wasmLimits.js";

const limitsByParams = new WeakMap<RuntimeParameters, WasmLimits>();

/**
 * The limits preparation enforces, from the runtime parameter table; one object per table, so
 * the contract cache can tell calls under the same limits apart cheaply.
 */
export function wasmLimitsOf(p: RuntimeParameters): WasmLimits {
  let limits = limitsByParams.get(p);
  if (limits === undefined) limitsByParams.set(p, (limits = Object.freeze(limitsFrom(p))));
  return limits;
}

function limitsFrom(p: RuntimeParameters): WasmLimits {
  const w = p.wasm;
  return {
    initialMemoryPages: w.initialMemoryPages,
    maxMemoryPages: w.maxMemoryPages,
    maxStackHeight: Number(w.maxStackHeight),
    maxFunctionsNumberPerContract: w.maxFunctionsNumberPerContract,
    maxLocalsPerContract: w.maxLocalsPerContract,
    ...(w.minContractSizePerLocal !== undefined && { minContractSizePerLocal: w.minContractSizePerLocal }),
    maxTablesPerContract: w.maxTablesPerContract,
    maxElementsPerContractTable: w.maxElementsPerContractTable,
    maxFunctionBodySize: w.maxFunctionBodySize,
    maxContractSize: Number(w.maxContractSize),
    regularOpCost: Number(w.regularOpCost),
    linearOpBaseCost: Number(w.linearOpBaseCost),
    linearOpUnitCost: Number(w.linearOpUnitCost),
  };
}
