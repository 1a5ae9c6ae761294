import type { RelayedResult } from "../../../generated/rpc/methods.js";
import type { ChunkParams, ChunkResult } from "../../../generated/rpc/types.js";
import { GENESIS_CHUNK_BODY } from "../../chain/views/ChunkBodies.js";
import { chunkContentView } from "../../chain/views/chunkContentView.js";
import { UnknownChunkError } from "../errors.js";
import { resolveChunk } from "./chunkReference.js";
import type { RpcContext } from "./context.js";
import { forwardToUpstream, upstreamBlockId } from "./forkForward.js";

/**
 * `chunk`: a chunk's header with the transactions it includes and, as nearcore's
 * `prev_outgoing_receipts`, the receipts its shard's previous chunk sent (the ones that join
 * the chain with this chunk). A chunk whose body the chain does not hold is UNKNOWN_CHUNK (as
 * nearcore answers a chunk missing from its store), never an empty chunk; genesis chunks carry
 * nothing.
 */
export function chunk(params: ChunkParams, ctx: RpcContext): ChunkResult | Promise<RelayedResult> {
  if (ctx.chain.fork !== undefined) {
    // A fork's chunks at or below the fork block (and chunk hashes it never made) are the upstream's.
    const upstream = "chunk_id" in params ? ctx.chain.chunkByHash(params.chunk_id) === undefined : upstreamBlockId(ctx, params) !== undefined;
    if (upstream) return forwardToUpstream(ctx, "chunk", params);
  }
  const { block, shardIndex, header } = resolveChunk(ctx, params);
  const body =
    ctx.chain.chunkBodies.get(header.chunk_hash) ?? (block.height === ctx.chain.genesisBlock.height ? GENESIS_CHUNK_BODY : undefined);
  if (body === undefined) throw new UnknownChunkError(header.chunk_hash);
  // Every block has a new chunk per shard: the previous one is the previous block's.
  const previous = block.height === ctx.chain.genesisBlock.height ? undefined : ctx.chain.blockByHash(block.view.header.prev_hash);
  const previousChunk = previous?.view.chunks[shardIndex];
  const sent = previousChunk === undefined ? GENESIS_CHUNK_BODY : (ctx.chain.chunkBodies.get(previousChunk.chunk_hash) ?? GENESIS_CHUNK_BODY);
  return { author: block.view.author, ...chunkContentView(block, shardIndex, { transactions: body.transactions, receipts: sent.receipts }) };
}
