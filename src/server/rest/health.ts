import type { RestHandlers } from "../../../generated/rest/routes.js";
import type { RestContext } from "./RestContext.js";
import { appliedHeight } from "./status.js";
import { thenMaybe } from "./thenMaybe.js";

/** FastNEAR's MAX_HEALTHY_SYNC_BLOCK_DIFF default. */
export const MAX_HEALTHY_BLOCK_DIFF = 3;

/** GET /health: always 200; `status` says why the index is unhealthy (behind the chain head). */
export const health: RestHandlers<RestContext>["health"] = (_params, ctx) =>
  thenMaybe(ctx.index.status(), (index) => {
    const height = appliedHeight(index);
    const diff = ctx.headHeight() - height;
    return {
      status: 200 as const,
      body: {
        block_height: height,
        status: diff > MAX_HEALTHY_BLOCK_DIFF ? `HighSyncBlockDiff { diff: ${diff}, max_diff: ${MAX_HEALTHY_BLOCK_DIFF} }` : "ok",
      },
    };
  });
