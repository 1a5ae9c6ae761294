import { hostError } from "../HostError.js";
import type { VmLogic } from "../VmLogic.js";
import type { HostImports } from "./HostImports.js";

/**
 * nearcore host functions shardkit does not implement (deterministic state init). They exist so that any contract
 * importing them instantiates; a call charges `base` and fails with a HostError
 * (`Deprecated { method_name }`, the variant nearcore uses for host functions that no longer
 * work), or ProhibitedInView in a view call where nearcore prohibits the function.
 */
const UNSUPPORTED = [
  "promise_batch_action_state_init",
  "promise_batch_action_state_init_by_account_id",
  "set_state_init_data_entry",
] as const;

const VIEW_PROHIBITED = new Set<string>(UNSUPPORTED.filter((n) => n.startsWith("promise") || n === "set_state_init_data_entry"));

export function unsupportedImports(l: VmLogic): HostImports {
  const out: HostImports = {};
  for (const name of UNSUPPORTED) {
    out[name] = (): never => {
      l.gas.payBase("base");
      if (VIEW_PROHIBITED.has(name)) l.denyInView(name);
      throw hostError({ name: "Deprecated", fields: { method_name: name } });
    };
  }
  return out;
}
