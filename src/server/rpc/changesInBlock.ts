import type { BlockReference, ExperimentalChangesInBlockResult } from "../../../generated/rpc/types.js";
import { changedKeysInBlock } from "../../chain/views/changedKeys.js";
import { stateChangeKinds } from "../../chain/views/stateChangeKinds.js";
import { RpcError } from "../errors.js";
import { earliestAvailableHeight, lookup } from "./blockReference.js";
import type { RpcContext } from "./context.js";

/**
 * `EXPERIMENTAL_changes_in_block` / `block_effects`: the kinds of state a block changed per
 * account. An unknown block's `data` is the serialised cause, as nearcore's changes errors send it.
 */
export function changesInBlock(params: BlockReference, ctx: RpcContext): ExperimentalChangesInBlockResult {
  const block = lookup(ctx, params);
  if (block === undefined) {
    const cause = { name: "UNKNOWN_BLOCK", info: {} };
    throw new RpcError("UNKNOWN_BLOCK", cause.info, cause);
  }
  // A regular node has garbage-collected the state changes of blocks outside its window.
  if (block.height < earliestAvailableHeight(ctx)) return { block_hash: block.hash, changes: [] };
  return { block_hash: block.hash, changes: stateChangeKinds(changedKeysInBlock(ctx.chain, block)) };
}
