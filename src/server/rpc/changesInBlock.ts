import type { BlockReference, ExperimentalChangesInBlockResult } from "../../../generated/rpc/types.js";
import { stateChangeKinds } from "../../chain/views/stateChangeKinds.js";
import { resolveChangesBlock } from "./changesBlock.js";
import type { RpcContext } from "./context.js";

/**
 * `EXPERIMENTAL_changes_in_block` / `block_effects`: the kinds of state a block changed per
 * account, one per key the block wrote (the keys `changes` reports), in key order.
 */
export function changesInBlock(params: BlockReference, ctx: RpcContext): ExperimentalChangesInBlockResult {
  const block = resolveChangesBlock(ctx, params);
  return { block_hash: block.hash, changes: stateChangeKinds(ctx.chain.stateChangesInBlock(block)) };
}
