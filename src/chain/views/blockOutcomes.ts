import { base58Encode } from "@shardkit/primitives/base58";
import { pathFromLevels, treeLevels } from "../blocks/merkle.js";
import { formatCryptoHash } from "../primitives/cryptoHash.js";
import type { ChunkResult } from "../runtime/applyChunk.js";
import { toExecutionOutcomeView, type ExecutionOutcome, type ExecutionOutcomeWithIdView, type MerklePathItem } from "../runtime/executionOutcome.js";
import type { DecodedSignedTransaction } from "../transaction/index.js";

/** A transaction a chunk included, with its outcome as `tx` shows it. */
export interface IncludedTransactionOutcome {
  /** base58 */
  readonly hash: string;
  readonly stx: DecodedSignedTransaction;
  readonly view: ExecutionOutcomeWithIdView;
}

/** A receipt a chunk executed, with its outcome as `tx` shows it. */
export interface ExecutedReceiptOutcome {
  readonly outcome: ExecutionOutcome;
  readonly view: ExecutionOutcomeWithIdView;
}

/** What one chunk of a block applied: its transactions, then its receipts, in execution order. */
export interface ChunkOutcomes {
  readonly shardId: number;
  /** False for a shard whose chunk the block did not include anew. */
  readonly isNew: boolean;
  readonly transactions: readonly IncludedTransactionOutcome[];
  readonly receipts: readonly ExecutedReceiptOutcome[];
}

/**
 * What blockOutcomes reads of a block: a Block, or these facts of one as plain data (the
 * history index's worker thread gets them in a message).
 */
export interface OutcomeBlock {
  readonly height: number;
  /** base58 */
  readonly hash: string;
  /** By shard index: the outcome leaves of its chunk (already hashed). */
  readonly outcomeLeaves: readonly (readonly Uint8Array[])[];
  readonly view: { readonly chunks: readonly { readonly shard_id: number; readonly height_included: number }[] };
}

/**
 * Every outcome a block's chunks produced, as nearcore's ExecutionOutcomeWithIdView with its
 * merkle proof (the same values `tx` and `light_client_proof` give, see
 * LightClientViews.outcomePath). The leaves of a chunk's outcome tree are its transactions'
 * outcomes then its receipts', in execution order, so each chunk's tree is built once and
 * each inner hash formatted once, instead of one tree walk per outcome.
 */
export function blockOutcomes(block: OutcomeBlock, results: readonly Pick<ChunkResult, "included" | "receiptOutcomes">[]): ChunkOutcomes[] {
  return results.map((result, shardIndex) => {
    const chunk = block.view.chunks[shardIndex];
    const proofs = leafProofs(block.outcomeLeaves[shardIndex] ?? []);
    const view = (outcome: ExecutionOutcome, leaf: number): ExecutionOutcomeWithIdView => ({
      proof: proofs(leaf),
      block_hash: block.hash,
      id: base58Encode(outcome.id),
      outcome: toExecutionOutcomeView(outcome),
    });
    const included = result.included.length;
    return {
      shardId: chunk?.shard_id ?? shardIndex,
      isNew: chunk?.height_included === block.height,
      transactions: result.included.map(({ stx, outcome }, i) => ({ hash: base58Encode(stx.hash), stx, view: view(outcome, i) })),
      receipts: result.receiptOutcomes.map((outcome, i) => ({ outcome, view: view(outcome, included + i) })),
    };
  });
}

/** The proof of each leaf of one tree, its inner hashes formatted on first use and shared between paths. */
function leafProofs(leaves: readonly Uint8Array[]): (leaf: number) => MerklePathItem[] {
  if (leaves.length === 0) return () => [];
  const levels = treeLevels(leaves);
  const formatted = new Map<Uint8Array, string>();
  const text = (hash: Uint8Array) => {
    let s = formatted.get(hash);
    if (s === undefined) formatted.set(hash, (s = formatCryptoHash(hash)));
    return s;
  };
  return (leaf) => (leaf < leaves.length ? pathFromLevels(levels, leaf).map((step) => ({ hash: text(step.hash), direction: step.direction })) : []);
}
