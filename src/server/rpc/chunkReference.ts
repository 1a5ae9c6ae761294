import type { ChunkReference } from "../../../generated/rpc/types.js";
import { InvalidShardIdError, UnknownChunkError } from "../errors.js";
import { earliestAvailableHeight, resolveBlockBody } from "./blockReference.js";
import type { Block, RpcContext } from "./context.js";

/**
 * Resolves a chunk the way nearcore's view client does: by hash through the chunk store
 * (UNKNOWN_CHUNK when missing, or when its block's body is outside this listener's
 * retention), or by block (UNKNOWN_BLOCK with the store's message) and shard id
 * (INVALID_SHARD_ID for an id the layout lacks).
 */
export function resolveChunk(ctx: RpcContext, reference: ChunkReference): { block: Block; shardIndex: number } {
  if ("chunk_id" in reference) {
    const found = ctx.chain.chunkByHash(reference.chunk_id);
    if (found === undefined || found.block.height < earliestAvailableHeight(ctx)) throw new UnknownChunkError(reference.chunk_id);
    return found;
  }
  const block = resolveBlockBody(ctx, { block_id: reference.block_id });
  const shardIndex = ctx.chain.shardLayout.indexOfShardId(reference.shard_id);
  if (shardIndex === undefined) throw new InvalidShardIdError(reference.shard_id);
  return { block, shardIndex };
}
