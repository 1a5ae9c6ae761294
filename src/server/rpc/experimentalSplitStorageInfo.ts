import type { ExperimentalSplitStorageInfoParams, ExperimentalSplitStorageInfoResult } from "../../../generated/rpc/types.js";
import type { RpcContext } from "./context.js";

/** `EXPERIMENTAL_split_storage_info`: one hot store, no cold store; its kind follows the listener. */
export function experimentalSplitStorageInfo(
  _params: ExperimentalSplitStorageInfoParams,
  ctx: RpcContext,
): ExperimentalSplitStorageInfoResult {
  return {
    head_height: ctx.chain.head().height,
    final_head_height: ctx.chain.blockByFinality("final").height,
    cold_head_height: null,
    hot_db_kind: ctx.archival ? "Archive" : "RPC",
  };
}
