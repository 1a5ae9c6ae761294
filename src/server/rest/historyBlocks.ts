import type { RestHandlers } from "../../../generated/rest/routes.js";
import { badRequest, bound, heightOutOfRange, historyOf, historyRequest } from "./historyRequests.js";
import type { RestContext } from "./RestContext.js";
import { thenMaybe } from "./thenMaybe.js";

/** FastNEAR's BLOCKS_DEFAULT_LIMIT (also the maximum). */
export const BLOCKS_LIMIT = 100;

/** POST /v0/blocks: block rows over a height range. */
export const historyBlocks: RestHandlers<RestContext>["historyBlocks"] = (_params, ctx, body) => {
  const request = historyRequest("historyBlocks", body);
  if (!request.ok) return request.reply;
  const input = request.body;
  const outOfRange = heightOutOfRange(input.from_block_height, input.to_block_height);
  if (outOfRange !== undefined) return badRequest(outOfRange);
  const fromHeight = bound(input.from_block_height);
  const toHeight = bound(input.to_block_height);
  const query = {
    desc: input.desc ?? true,
    limit: input.limit ?? BLOCKS_LIMIT,
    ...(fromHeight !== undefined && { fromHeight }),
    ...(toHeight !== undefined && { toHeight }),
  };
  return thenMaybe(historyOf(ctx).blocks(query), (blocks) => ({ status: 200 as const, body: { blocks: [...blocks] } }));
};
