import type { ShardkitRevertParams, ShardkitRevertResult } from "../../../generated/rpc/types.js";
import { UnknownSnapshotError } from "../../chain/sandbox/DevChainControl.js";
import { UnknownSnapshotRpcError } from "../errors.js";
import type { RpcContext } from "./context.js";
import { devChainOf } from "./devChain.js";

/** `shardkit_revert` (ours, Anvil-style): the snapshot's block becomes the head again. Not on the archival listener. */
export function shardkitRevert(params: ShardkitRevertParams, ctx: RpcContext): ShardkitRevertResult {
  const control = devChainOf(ctx, "shardkit_revert", { regularOnly: true });
  try {
    const head = control.revert(params.snapshot_id);
    return { block_height: head.height, block_hash: head.hash };
  } catch (error) {
    if (error instanceof UnknownSnapshotError) throw new UnknownSnapshotRpcError(error.snapshotId, error.message);
    throw error;
  }
}
