import type { ShardkitResetParams, ShardkitResetResult } from "../../../generated/rpc/types.js";
import { MethodNotFoundError } from "../errors.js";
import type { RpcContext } from "./context.js";

/** `shardkit_reset` (ours, Anvil's anvil_reset): a new chain, forked or not, in place of this one. Not on the archival listener. */
export async function shardkitReset(params: ShardkitResetParams, ctx: RpcContext): Promise<ShardkitResetResult> {
  if (ctx.reset === undefined || ctx.archival) throw new MethodNotFoundError("shardkit_reset");
  const { head, fork } = await ctx.reset({
    ...(params.fork_url !== undefined && { forkUrl: params.fork_url }),
    ...(params.fork_block !== undefined && { forkBlock: params.fork_block }),
  });
  return { block_height: head.height, block_hash: head.hash, fork };
}
