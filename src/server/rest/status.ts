import type { RestHandlers } from "../../../generated/rest/routes.js";
import { IndexUnavailableError } from "../../indexer/IndexUnavailableError.js";
import { readableIndexStatus } from "./readableIndexStatus.js";
import type { RestContext } from "./RestContext.js";
import { thenMaybe } from "./thenMaybe.js";

/**
 * GET /status: FastNEAR's index status. Always 200: while the index cannot be read,
 * `block_height` is the chain head and every `sync_*` field is null.
 */
export const status: RestHandlers<RestContext>["status"] = (_params, ctx) =>
  thenMaybe(readableIndexStatus(ctx), (index) => {
    if (index instanceof IndexUnavailableError) {
      return {
        status: 200 as const,
        body: {
          block_height: ctx.headHeight(),
          sync_balance_block_height: null,
          sync_block_height: null,
          sync_block_timestamp_nanosec: null,
          sync_latency_sec: null,
          version: ctx.version,
        },
      };
    }
    const timestampNs = index.timestampNs;
    return {
      status: 200 as const,
      body: {
        block_height: index.height,
        sync_balance_block_height: index.balanceHeight,
        sync_block_height: index.height,
        sync_block_timestamp_nanosec: timestampNs === null ? null : timestampNs.toString(),
        // ns → s as FastNEAR computes it (now − block time).
        sync_latency_sec: timestampNs === null ? null : Number(BigInt(Math.round(ctx.now() * 1e6)) - timestampNs) / 1e9,
        version: ctx.version,
      },
    };
  });
