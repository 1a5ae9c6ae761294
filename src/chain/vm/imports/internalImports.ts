import { hostError } from "../HostError.js";
import type { VmLogic } from "../VmLogic.js";
import type { HostImports } from "./HostImports.js";

/**
 * nearcore logic.rs "Finite-wasm internals": the functions gas/stack instrumentation calls.
 * `finite_wasm_gas` burns the gas the instrumentation computed for a straight-line segment;
 * stack frames pay ceil(frame/8) × regular_op_cost and overflowing the budget is
 * MemoryAccessViolation, as in nearcore; bulk operations pay constant + linear × count.
 * `finite_wasm_gas` also looks at the wall clock now and then (VmLogic.checkClock), so code
 * that would spin until its gas runs out cannot hold the node for long.
 */
export function internalImports(l: VmLogic): HostImports {
  const linear = (count: number, perUnit: bigint, constant: bigint): number => {
    l.gas.burn(constant + BigInt(count >>> 0) * perUnit);
    return count;
  };
  return {
    finite_wasm_gas(gas: bigint): void {
      if (!l.gas.burnWasm(gas)) l.gas.burn(gas); // over the limit: burn's error path clamps and names it
      if (--l.ticksToClockCheck <= 0) l.checkClock();
    },
    /** Gas in wasm globals (instrument.ts GasGlobals): the counter went below zero. */
    gas_checkpoint(gas: bigint): void {
      l.wasmGasCheckpoint(gas);
    },
    finite_wasm_stack(operand: bigint, frame: bigint): void {
      const need = BigInt.asUintN(64, operand) + BigInt.asUintN(64, frame);
      if (need > l.remainingStack) throw hostError({ name: "MemoryAccessViolation" });
      l.remainingStack -= need;
      l.gas.burn(((BigInt.asUintN(64, frame) + 7n) / 8n) * l.config.regularOpCost);
    },
    finite_wasm_unstack(operand: bigint, frame: bigint): void {
      l.remainingStack += BigInt.asUintN(64, operand) + BigInt.asUintN(64, frame);
    },
    finite_wasm_memory_copy: linear,
    finite_wasm_memory_fill: linear,
    finite_wasm_memory_init: linear,
    finite_wasm_table_copy: linear,
    finite_wasm_table_fill: linear,
    finite_wasm_table_init: linear,
    finite_wasm_gas_exhausted(): void {
      l.gas.burn(l.gas.remainingGas);
      throw hostError({ name: "IntegerOverflow" });
    },
    finite_wasm_stack_exhausted(): void {
      throw hostError({ name: "MemoryAccessViolation" });
    },
  };
}
