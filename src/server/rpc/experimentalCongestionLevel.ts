import type { ExperimentalCongestionLevelParams, ExperimentalCongestionLevelResult } from "../../../generated/rpc/types.js";
import { localizedCongestionLevel } from "../../chain/views/congestionLevel.js";
import { resolveChunk } from "./chunkReference.js";
import type { RpcContext } from "./context.js";

/** `EXPERIMENTAL_congestion_level`: the chunk header's congestion info as nearcore's level. */
export function experimentalCongestionLevel(params: ExperimentalCongestionLevelParams, ctx: RpcContext): ExperimentalCongestionLevelResult {
  const info = resolveChunk(ctx, params).header.congestion_info;
  return { congestion_level: info === undefined || info === null ? 0 : localizedCongestionLevel(info) };
}
