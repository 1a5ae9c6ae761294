import type { RestHandlers } from "../../../generated/rest/routes.js";
import { IndexUnavailableError } from "../../indexer/IndexUnavailableError.js";
import { readableIndexStatus } from "./readableIndexStatus.js";
import type { RestContext } from "./RestContext.js";
import { thenMaybe } from "./thenMaybe.js";

/** FastNEAR's MAX_HEALTHY_SYNC_BLOCK_DIFF default. */
export const MAX_HEALTHY_BLOCK_DIFF = 3;

/** /health's `status` while the index cannot be read (REST /v1 answers 503 meanwhile). */
export const INDEX_UNAVAILABLE_STATUS = "IndexUnavailable";

/**
 * GET /health: always 200, whatever is down (a load balancer checking it must not pull the
 * instance, JSON-RPC included, out of rotation for an index outage); `status` says why the index
 * is unhealthy: behind the chain head, or unreadable (`block_height` is then the chain head).
 */
export const health: RestHandlers<RestContext>["health"] = (_params, ctx) =>
  thenMaybe(readableIndexStatus(ctx), (index) => {
    if (index instanceof IndexUnavailableError) return { status: 200 as const, body: { block_height: ctx.headHeight(), status: INDEX_UNAVAILABLE_STATUS } };
    const diff = ctx.headHeight() - index.height;
    return {
      status: 200 as const,
      body: {
        block_height: index.height,
        status: diff > MAX_HEALTHY_BLOCK_DIFF ? `HighSyncBlockDiff { diff: ${diff}, max_diff: ${MAX_HEALTHY_BLOCK_DIFF} }` : "ok",
      },
    };
  });
