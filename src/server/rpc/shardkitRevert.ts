import type { ShardkitRevertParams, ShardkitRevertResult } from "../../../generated/rpc/types.js";
import { UnknownSnapshotError } from "../../chain/sandbox/DevChainControl.js";
import { UnknownSnapshotRpcError } from "../errors.js";
import type { RpcContext } from "./context.js";
import { devChainOf } from "./devChain.js";

/**
 * The id as `shardkit_snapshot` spells it (`0x` and lower-case hex without leading zeros): the
 * spec's pattern admits any spelling of the same number (`0x01`, `0X1`), as Anvil's U256 ids.
 */
export function canonicalSnapshotId(id: string): string {
  return `0x${BigInt(`0x${id.slice(2)}`).toString(16)}`;
}

/** `shardkit_revert` (ours, Anvil-style): the snapshot's block becomes the head again. Not on the archival listener. */
export function shardkitRevert(params: ShardkitRevertParams, ctx: RpcContext): ShardkitRevertResult {
  const control = devChainOf(ctx, "shardkit_revert", { regularOnly: true });
  try {
    const head = control.revert(canonicalSnapshotId(params.snapshot_id));
    return { block_height: head.height, block_hash: head.hash };
  } catch (error) {
    // The id as the caller spelled it, as nearcore echoes request values in error info.
    if (error instanceof UnknownSnapshotError) throw new UnknownSnapshotRpcError(params.snapshot_id, error.message);
    throw error;
  }
}
