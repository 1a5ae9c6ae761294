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

/** i64 arguments arrive signed; nearcore's host sees them as u64. */
function unsigned(imports: HostImports): HostImports {
  const out: HostImports = {};
  for (const [name, fn] of Object.entries(imports)) {
    out[name] = (...args: unknown[]) => fn(...args.map((a) => (typeof a === "bigint" ? BigInt.asUintN(64, a) : a)));
  }
  return out;
}

/** Every host function for `l`, by module; each group lives in its own file. */
export function hostFunctions(l: VmLogic): Record<string, HostImports> {
  return {
    env: unsigned({
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
