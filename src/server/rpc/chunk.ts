import type { ChunkParams, ChunkResult } from "../../../generated/rpc/types.js";
import { chunkBodiesOf, chunkContentView } from "../../chain/views/ChunkBodies.js";
import { InternalError } from "../errors.js";
import { resolveChunk } from "./chunkReference.js";
import type { RpcContext } from "./context.js";

/** `chunk`: a chunk's header with the transactions it includes and the receipts it sends on. */
export function chunk(params: ChunkParams, ctx: RpcContext): ChunkResult {
  const { block, shardIndex } = resolveChunk(ctx, params);
  const bodies = chunkBodiesOf(ctx.chain);
  // Never answer empty lists for a chunk whose contents were not recorded.
  if (bodies === undefined) throw new InternalError("this chain does not record chunk bodies (Chain.chunkBodies is missing)");
  const header = block.view.chunks[shardIndex]!;
  return { author: block.view.author, ...chunkContentView(block, shardIndex, bodies.get(header.chunk_hash)) };
}
