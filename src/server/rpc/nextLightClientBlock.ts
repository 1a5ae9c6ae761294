import type { NextLightClientBlockParams, NextLightClientBlockResult } from "../../../generated/rpc/types.js";
import type { RpcContext } from "./context.js";
import { toNextBlockError } from "./lightClientErrors.js";

/** `next_light_client_block`: the next light-client block after `last_block_hash`, or `{}`. */
export function nextLightClientBlock(params: NextLightClientBlockParams, ctx: RpcContext): NextLightClientBlockResult {
  try {
    return ctx.chain.lightClient.nextLightClientBlock(params.last_block_hash) ?? {};
  } catch (e) {
    throw toNextBlockError(e);
  }
}
