import type { RelayedResult } from "../../../generated/rpc/methods.js";
import type { BlockParams, BlockResult } from "../../../generated/rpc/types.js";
import { resolveBlockBody } from "./blockReference.js";
import type { RpcContext } from "./context.js";
import { forwardToUpstream, upstreamBlockId } from "./forkForward.js";

/**
 * `block`: the block view (author, header, one chunk header per shard) nearcore returns. On
 * a fork, blocks at or below the fork block are the upstream's: asked from it.
 */
export function block(params: BlockParams, ctx: RpcContext): BlockResult | Promise<RelayedResult> {
  if (upstreamBlockId(ctx, params) !== undefined) return forwardToUpstream(ctx, "block", params);
  return resolveBlockBody(ctx, params).view;
}
