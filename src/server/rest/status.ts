import type { RestHandlers } from "../../../generated/rest/routes.js";
import { indexedHeight, type RestContext } from "./RestContext.js";

/** GET /status: FastNEAR's index status. */
export const status: RestHandlers<RestContext>["status"] = (_params, ctx) => {
  const { index } = ctx;
  const timestampNs = index.timestampNs;
  return {
    status: 200,
    body: {
      block_height: indexedHeight(ctx),
      sync_balance_block_height: index.balanceHeight,
      sync_block_height: index.height,
      sync_block_timestamp_nanosec: timestampNs === null ? null : timestampNs.toString(),
      // ns → s as FastNEAR computes it (now − block time).
      sync_latency_sec: timestampNs === null ? null : Number(BigInt(Math.round(ctx.now() * 1e6)) - timestampNs) / 1e9,
      version: ctx.version,
    },
  };
};
