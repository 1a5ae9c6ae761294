import type { BlockReference } from "../../../../generated/rpc/types.js";
import { GarbageCollectedBlockError, InternalError, UnknownBlockError } from "../../errors.js";
import { resolveStateBlock } from "../blockReference.js";
import type { Block, RpcContext } from "../context.js";
import { blockReferenceDebug } from "./rustDebug.js";

/**
 * The block a typed view method (`EXPERIMENTAL_view_*`, `EXPERIMENTAL_call_function`) reads
 * at. nearcore converts `query`'s errors into each method's own error enum: an unknown block
 * keeps UNKNOWN_BLOCK with the reference as info but its `data` becomes the enum's Display
 * text, and a garbage-collected block has no variant of its own, so it becomes INTERNAL_ERROR
 * with the `query` message (chain/jsonrpc-primitives/src/types/view_*.rs).
 */
export function typedViewBlock(ctx: RpcContext, params: BlockReference): Block {
  try {
    return resolveStateBlock(ctx, params);
  } catch (error) {
    const reference = error instanceof UnknownBlockError ? error.info.block_reference : undefined;
    if (reference !== undefined) {
      throw new UnknownBlockError(
        { block_reference: reference },
        `Block either has never been observed on the node or has been garbage collected: ${blockReferenceDebug(reference)}`,
      );
    }
    if (error instanceof GarbageCollectedBlockError) throw new InternalError(String(error.data));
    throw error;
  }
}
