import { type FiniteWasmImports, GAS_GLOBAL_EXPORT, START_EXPORT } from "../../../../src/chain/vm/wasm/instrument.js";
import { NEARCORE_WASM_LIMITS, type WasmLimits } from "../../../../src/chain/vm/wasm/wasmLimits.js";

/** Why a metered run stopped early. */
export class MeterStop extends Error {
  constructor(readonly reason: "gas" | "stack" | "host") {
    super(reason);
  }
}

type HostFunctions = Record<string, (...args: never[]) => unknown>;

export interface MeteredRunResult {
  /** Gas charged by the instrumentation (wasm instructions and frames), capped at the limit. */
  readonly gas: bigint;
  /** How the call ended: "ok", a MeterStop reason, or the trap message. */
  readonly end: string;
  /** Remaining stack after the call (should be back to max_stack_height unless it aborted). */
  readonly stackLeft: bigint;
  readonly maxDepthStack: bigint;
}

/**
 * Runs an export of a prepared module against a minimal host that implements nearcore's
 * finite-wasm host functions (gas, stack, unstack) and nothing else of `env` but `memory`
 * and the given functions: enough to check the instrumentation on its own.
 */
export function meteredRun(
  module: WebAssembly.Module,
  method: string,
  options: {
    gasLimit?: bigint;
    env?: HostFunctions | ((memory: WebAssembly.Memory) => HostFunctions);
    limits?: WasmLimits;
    /** Gas-global modules: the most gas armed at once (small values make checkpoints frequent). */
    armCap?: bigint;
  } = {},
): MeteredRunResult {
  const limits = options.limits ?? NEARCORE_WASM_LIMITS;
  const gasLimit = options.gasLimit ?? 300_000_000_000_000n;
  const regular = BigInt(limits.regularOpCost);
  let gas = 0n;
  let stack = BigInt(limits.maxStackHeight);
  let lowest = stack;
  const charge = (amount: bigint): void => {
    gas += amount;
    if (gas > gasLimit) {
      gas = gasLimit;
      throw new MeterStop("gas");
    }
  };
  // Gas kept in the instance (instrument.ts GasGlobals): the same protocol as VmLogic's.
  const armCap = options.armCap ?? 10n ** 12n;
  let gasGlobal: WebAssembly.Global | undefined;
  let armed = 0n;
  const arm = (): void => {
    const left = gasLimit - gas;
    armed = left < armCap ? left : armCap;
    gasGlobal!.value = armed;
  };
  const sync = (): void => {
    if (gasGlobal === undefined) return;
    const left = gasGlobal.value as bigint;
    gas += armed - left;
    armed = left;
  };
  const internal: FiniteWasmImports & Record<string, (...args: never[]) => void> = {
    gas_checkpoint: (fee: bigint) => {
      const left = gasGlobal!.value as bigint;
      gas += armed - (left + fee);
      armed = left;
      charge(fee);
      arm();
    },
    finite_wasm_stack_exhausted: () => {
      throw new MeterStop("stack");
    },
    finite_wasm_gas: (amount) => charge(amount),
    finite_wasm_stack: (operand, frame) => {
      if (stack < operand + frame) throw new MeterStop("stack");
      stack -= operand + frame;
      if (stack < lowest) lowest = stack;
      charge(((frame + 7n) / 8n) * regular);
    },
    finite_wasm_unstack: (operand, frame) => {
      stack += operand + frame;
    },
  };
  const memory = new WebAssembly.Memory({ initial: limits.initialMemoryPages, maximum: limits.maxMemoryPages });
  let end = "ok";
  try {
    const env = typeof options.env === "function" ? options.env(memory) : options.env;
    const instance = new WebAssembly.Instance(module, { env: { memory, ...env }, internal: { ...internal } });
    gasGlobal = instance.exports[GAS_GLOBAL_EXPORT] as WebAssembly.Global | undefined;
    if (gasGlobal !== undefined) arm();
    (instance.exports[START_EXPORT] as (() => void) | undefined)?.();
    (instance.exports[method] as () => void)();
  } catch (e) {
    end = e instanceof MeterStop ? e.reason : e instanceof Error ? e.message : String(e);
  }
  sync();
  return { gas, end, stackLeft: stack, maxDepthStack: BigInt(limits.maxStackHeight) - lowest };
}
