import type { BlockId, BlockReference } from "../../../generated/rpc/types.js";
import { GarbageCollectedBlockError, UnknownBlockError } from "../errors.js";
import type { Block, RpcContext } from "./context.js";
import { blockPoint } from "./query/blockPoint.js";

/** Lowest height whose state and body this listener still serves. */
export function earliestAvailableHeight(ctx: RpcContext): number {
  const genesis = ctx.chain.genesisBlock.height;
  if (ctx.archival) return genesis;
  return Math.max(genesis, ctx.chain.head().height - ctx.retention + 1);
}

/** Finds the block a reference names, among every block the chain has seen (headers are kept forever). */
export function lookup(ctx: RpcContext, reference: BlockReference): Block | undefined {
  if ("finality" in reference) return ctx.chain.blockByFinality(reference.finality);
  if ("sync_checkpoint" in reference) {
    return reference.sync_checkpoint === "genesis"
      ? ctx.chain.genesisBlock
      : ctx.chain.blockByHeight(earliestAvailableHeight(ctx));
  }
  return byId(ctx, reference.block_id);
}

function byId(ctx: RpcContext, id: BlockId): Block | undefined {
  return typeof id === "number" ? ctx.chain.blockByHeight(id) : ctx.chain.blockByHash(id);
}

/**
 * nearcore's `data` for a block it never saw: the store's "not found" message; `query` by hash
 * reports the missing header without the cause suffix.
 */
function notFoundMessage(id: BlockId, what: "BLOCK" | "BLOCK HEADER"): string {
  if (typeof id === "number") return `DB Not Found Error: BLOCK HEIGHT: ${id} \n Cause: Unknown`;
  return what === "BLOCK HEADER" ? `DB Not Found Error: BLOCK HEADER: ${id}` : `DB Not Found Error: BLOCK: ${id} \n Cause: Unknown`;
}

/** Just the block reference part of params that carry other fields too. */
function referenceOnly(params: BlockReference): BlockReference {
  if ("finality" in params) return { finality: params.finality };
  if ("sync_checkpoint" in params) return { sync_checkpoint: params.sync_checkpoint };
  return { block_id: params.block_id };
}

/**
 * Resolves the block a `query` reads state at. Unknown blocks answer UNKNOWN_BLOCK with the
 * reference as info; a known block outside this listener's retention window answers
 * GARBAGE_COLLECTED_BLOCK, as a non-archival nearcore node does.
 */
export function resolveStateBlock(ctx: RpcContext, reference: BlockReference): Block {
  const block = lookup(ctx, reference);
  if (block === undefined) {
    const id = "block_id" in reference ? reference.block_id : undefined;
    const message = id === undefined ? "DB Not Found Error: block not available" : notFoundMessage(id, "BLOCK HEADER");
    throw new UnknownBlockError({ block_reference: referenceOnly(reference) }, message);
  }
  if (block.height < earliestAvailableHeight(ctx)) {
    throw new GarbageCollectedBlockError(blockPoint(block));
  }
  return block;
}

/**
 * Resolves the block the `block` method returns. Bodies of blocks outside the retention window
 * are gone on a regular node, so those answer UNKNOWN_BLOCK like never-seen blocks (info `{}`,
 * nearcore skips the message field).
 */
export function resolveBlockBody(ctx: RpcContext, reference: BlockReference): Block {
  const block = lookup(ctx, reference);
  if (block === undefined || block.height < earliestAvailableHeight(ctx)) {
    const id = "block_id" in reference ? reference.block_id : block?.height;
    throw new UnknownBlockError({}, id === undefined ? "DB Not Found Error: block not available" : notFoundMessage(id, "BLOCK"));
  }
  return block;
}

/**
 * Resolves a block by its header, as nearcore's `EXPERIMENTAL_protocol_config` does: headers
 * are never garbage collected, so any block the chain has seen answers, whatever the
 * retention window. A block it never saw answers UNKNOWN_BLOCK with info `{}` and
 * `Block Not Found: <store message>` as data.
 */
export function resolveBlockHeader(ctx: RpcContext, reference: BlockReference): Block {
  const block = lookup(ctx, reference);
  if (block === undefined) {
    const store =
      "block_id" in reference ? notFoundMessage(reference.block_id, "BLOCK HEADER").replace(/^DB Not Found Error: /, "") : "EarliestAvailable";
    throw new UnknownBlockError({}, `Block Not Found: ${store}`);
  }
  return block;
}
