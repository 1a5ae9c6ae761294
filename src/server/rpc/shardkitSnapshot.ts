import type { ShardkitSnapshotParams, ShardkitSnapshotResult } from "../../../generated/rpc/types.js";
import type { RpcContext } from "./context.js";
import { devChainOf } from "./devChain.js";

/** `shardkit_snapshot` (ours, Anvil-style): remembers the head for `shardkit_revert`. Not on the archival listener. */
export function shardkitSnapshot(_params: ShardkitSnapshotParams, ctx: RpcContext): ShardkitSnapshotResult {
  const { id, block } = devChainOf(ctx, "shardkit_snapshot", { regularOnly: true }).snapshot();
  return { snapshot_id: id, block_height: block.height, block_hash: block.hash };
}
