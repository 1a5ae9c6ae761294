import type { RestHandlers } from "../../../generated/rest/routes.js";
import type { IndexStatus } from "../../indexer/IndexStore.js";
import type { RestContext } from "./RestContext.js";
import { thenMaybe } from "./thenMaybe.js";

/** The index height every body reports; the indexer applies genesis before the listener opens. */
export function appliedHeight(status: IndexStatus): number {
  if (status.height === null) throw new Error("the index has not applied genesis yet");
  return status.height;
}

/** GET /status: FastNEAR's index status. */
export const status: RestHandlers<RestContext>["status"] = (_params, ctx) =>
  thenMaybe(ctx.index.status(), (index) => {
    const timestampNs = index.timestampNs;
    return {
      status: 200 as const,
      body: {
        block_height: appliedHeight(index),
        sync_balance_block_height: index.balanceHeight,
        sync_block_height: index.height,
        sync_block_timestamp_nanosec: timestampNs === null ? null : timestampNs.toString(),
        // ns → s as FastNEAR computes it (now − block time).
        sync_latency_sec: timestampNs === null ? null : Number(BigInt(Math.round(ctx.now() * 1e6)) - timestampNs) / 1e9,
        version: ctx.version,
      },
    };
  });
