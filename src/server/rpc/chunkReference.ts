import type { ChunkHeaderView, ChunkReference } from "../../../generated/rpc/types.js";
import { InvalidShardIdError, UnknownChunkError } from "../errors.js";
import { earliestAvailableHeight, resolveBlockBody } from "./blockReference.js";
import type { Block, RpcContext } from "./context.js";

/**
 * Resolves a chunk the way nearcore's view client does: by hash through the chunk store
 * (UNKNOWN_CHUNK when missing, or when its block's body is outside this listener's
 * retention), or by block (UNKNOWN_BLOCK with the store's message) and shard id
 * (INVALID_SHARD_ID for an id the layout lacks).
 */
export function resolveChunk(ctx: RpcContext, reference: ChunkReference): { block: Block; shardIndex: number; header: ChunkHeaderView } {
  if ("chunk_id" in reference) {
    const found = ctx.chain.chunkByHash(reference.chunk_id);
    const header = found?.block.view.chunks[found.shardIndex];
    if (found === undefined || header === undefined || found.block.height < earliestAvailableHeight(ctx)) throw new UnknownChunkError(reference.chunk_id);
    return { ...found, header };
  }
  const block = resolveBlockBody(ctx, { block_id: reference.block_id });
  const shardIndex = ctx.chain.shardLayout.indexOfShardId(reference.shard_id);
  const header = shardIndex === undefined ? undefined : block.view.chunks[shardIndex];
  if (shardIndex === undefined || header === undefined) throw new InvalidShardIdError(reference.shard_id);
  return { block, shardIndex, header };
}
