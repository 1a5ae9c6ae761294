import type { ChunkParams, ChunkResult } from "../../../generated/rpc/types.js";
import { chunkContentView } from "../../chain/views/ChunkBodies.js";
import { resolveChunk } from "./chunkReference.js";
import type { RpcContext } from "./context.js";

/** `chunk`: a chunk's header with the transactions it includes and the receipts it sends on. */
export function chunk(params: ChunkParams, ctx: RpcContext): ChunkResult {
  const { block, shardIndex } = resolveChunk(ctx, params);
  const header = block.view.chunks[shardIndex]!;
  return { author: block.view.author, ...chunkContentView(block, shardIndex, ctx.chain.chunkBodies.get(header.chunk_hash)) };
}
