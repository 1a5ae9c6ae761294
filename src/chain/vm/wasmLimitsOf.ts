import type { RuntimeParameters } from "../runtime/parameters.js";
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
