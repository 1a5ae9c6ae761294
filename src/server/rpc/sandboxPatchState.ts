import type { SandboxPatchStateParams, SandboxPatchStateResult } from "../../../generated/rpc/types.js";
import { PatchRecordError } from "../../chain/sandbox/patchState.js";
import { ParseError } from "../errors.js";
import type { RpcContext } from "./context.js";
import { devChainOf } from "./devChain.js";

/**
 * `sandbox_patch_state` (near-sandbox): writes the records into a block produced at once and
 * answers `{}` when it is the head. A record the schema lets through but the chain cannot take
 * (bad base64, a key of the wrong length, no account to hold it) is a PARSE_ERROR naming it.
 */
export function sandboxPatchState(params: SandboxPatchStateParams, ctx: RpcContext): SandboxPatchStateResult {
  const control = devChainOf(ctx, "sandbox_patch_state", { regularOnly: false });
  try {
    control.patchState(params.records);
  } catch (error) {
    if (error instanceof PatchRecordError) throw new ParseError(`Failed parsing args: ${error.message}`);
    throw error;
  }
  return {};
}
