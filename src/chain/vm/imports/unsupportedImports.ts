import { hostError } from "../HostError.js";
import type { VmLogic } from "../VmLogic.js";
import type { HostImports } from "./HostImports.js";

/**
 * nearcore host functions shardkit does not implement (bls12-381, yield/resume, global
 * contracts, deterministic state init, refund_to). They exist so that any contract
 * importing them instantiates; a call charges `base` and fails with a HostError
 * (`Deprecated { method_name }`, the variant nearcore uses for host functions that no longer
 * work), or ProhibitedInView in a view call where nearcore prohibits the function.
 */
const UNSUPPORTED = [
  "bls12381_p1_sum",
  "bls12381_p2_sum",
  "bls12381_g1_multiexp",
  "bls12381_g2_multiexp",
  "bls12381_map_fp_to_g1",
  "bls12381_map_fp2_to_g2",
  "bls12381_pairing_check",
  "bls12381_p1_decompress",
  "bls12381_p2_decompress",
  "promise_yield_create",
  "promise_yield_resume",
  "promise_set_refund_to",
  "promise_batch_action_deploy_global_contract",
  "promise_batch_action_deploy_global_contract_by_account_id",
  "promise_batch_action_use_global_contract",
  "promise_batch_action_use_global_contract_by_account_id",
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
      if (VIEW_PROHIBITED.has(name)) l.denyInView(name === "promise_yield_resume" ? "promise_submit_data" : name);
      throw hostError({ name: "Deprecated", fields: { method_name: name } });
    };
  }
  return out;
}
