import type { SandboxFastForwardParams, SandboxFastForwardResult } from "../../../generated/rpc/types.js";
import { InternalError } from "../errors.js";
import type { RpcContext } from "./context.js";
import { devChainOf } from "./devChain.js";

/**
 * `sandbox_fast_forward` (near-sandbox): answers `{}` once the head is `delta_height` blocks
 * higher. Any failure is nearcore's INTERNAL_ERROR `sandbox failed to fast forward due to:
 * "<reason>"` (the reason in Rust Debug quotes, as nearcore formats it).
 */
export async function sandboxFastForward(params: SandboxFastForwardParams, ctx: RpcContext): Promise<SandboxFastForwardResult> {
  const control = devChainOf(ctx, "sandbox_fast_forward", { regularOnly: false });
  try {
    await control.fastForward(params.delta_height);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new InternalError(`sandbox failed to fast forward due to: ${JSON.stringify(reason)}`);
  }
  return {};
}
