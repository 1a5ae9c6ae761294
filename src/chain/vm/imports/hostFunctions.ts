import type { VmLogic } from "../VmLogic.js";
import { contextImports } from "./contextImports.js";
import { economicsImports } from "./economicsImports.js";
import type { HostImports } from "./HostImports.js";
import { internalImports } from "./internalImports.js";
import { mathImports } from "./mathImports.js";
import { miscImports } from "./miscImports.js";
import { promiseImports } from "./promiseImports.js";
import { promiseResultImports } from "./promiseResultImports.js";
import { registerImports } from "./registerImports.js";
import { storageImports } from "./storageImports.js";
import { unsupportedImports } from "./unsupportedImports.js";
import { validatorImports } from "./validatorImports.js";

/**
 * i64 arguments arrive signed; nearcore's host sees them as u64. With gas kept in a wasm
 * global, the wasm gas spent since the last host call is settled first (so the host's charges
 * come after it, as with host-call metering) and the counter is re-armed afterwards.
 */
function unsigned(l: VmLogic, imports: HostImports): HostImports {
  const out: HostImports = {};
  for (const [name, fn] of Object.entries(imports)) {
    out[name] = (...args: unknown[]) => {
      l.syncWasmGas();
      const result = fn(...args.map((a) => (typeof a === "bigint" ? BigInt.asUintN(64, a) : a)));
      l.armWasmGas();
      return result;
    };
  }
  return out;
}

/** Every host function for `l`, by module; each group lives in its own file. */
export function hostFunctions(l: VmLogic): Record<string, HostImports> {
  return {
    env: unsigned(l, {
      ...registerImports(l),
      ...contextImports(l),
      ...economicsImports(l),
      ...mathImports(l),
      ...miscImports(l),
      ...storageImports(l),
      ...promiseImports(l),
      ...promiseResultImports(l),
      ...validatorImports(l),
      ...unsupportedImports(l),
    }),
    // Only the instrumentation calls these, with non-negative values: no conversion on the hot path.
    internal: internalImports(l),
  };
}
