import type { BlockReference, UnknownBlockData } from "../../../generated/rpc/types.js";
import { RpcError } from "../errors.js";
import { earliestAvailableHeight, lookup } from "./blockReference.js";
import type { Block, RpcContext } from "./context.js";

/**
 * The block a changes method reads. nearcore looks the block up first (`GetBlock`), so a
 * block it never saw, and on a regular node a block whose body is garbage collected,
 * answer UNKNOWN_BLOCK with info `{}` and the serialised cause as `data` (the changes
 * errors leave their message field out).
 */
export function resolveChangesBlock(ctx: RpcContext, reference: BlockReference): Block {
  const block = lookup(ctx, reference);
  if (block === undefined || block.height < earliestAvailableHeight(ctx)) {
    const cause: UnknownBlockData = { name: "UNKNOWN_BLOCK", info: {} };
    throw new RpcError("UNKNOWN_BLOCK", cause.info, cause);
  }
  return block;
}
