import type { BlockParams, BlockResult } from "../../../generated/rpc/types.js";
import { resolveBlockBody } from "./blockReference.js";
import type { RpcContext } from "./context.js";

/** `block`: the block view (author, header, one chunk header per shard) nearcore returns. */
export function block(params: BlockParams, ctx: RpcContext): BlockResult {
  return resolveBlockBody(ctx, params).view;
}
