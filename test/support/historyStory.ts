/*
 * What `/v0/transactions` shows of the outcomes `EXPERIMENTAL_tx_status` gives, in FastNEAR's
 * indexer shapes (its ImprovedExecutionOutcome): written out here, independently of the
 * builder, so the history tests compare the two answers field by field.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** The fields a `/v0` outcome shares with `tx`'s: its block, id and outcome, with the gas profile left out (no proof). */
export function sharedWithTx(outcome: Json): Json {
  return { block_hash: outcome.block_hash, id: outcome.id, outcome: { ...outcome.outcome, metadata: { ...outcome.outcome.metadata, gas_profile: null } } };
}

/** A `tx` outcome as `/v0` shows it, executed at `height` (Unix ns `timestamp`) with `index` (tx_index or receipt_index). */
export function storyOutcome(outcome: Json, height: number, timestamp: bigint, index: number): Json {
  const { block_hash, id, outcome: view } = sharedWithTx(outcome);
  return { block_hash, block_timestamp: Number(timestamp), block_height: height, index, id, outcome: view };
}

/** A receipt view as `/v0` shows it, appeared in block `height` (`hash`, Unix ns `timestamp`) at `index`. */
export function storyReceipt(receipt: Json, height: number, hash: string, timestamp: bigint, index: number): Json {
  return { block_height: height, block_hash: hash, block_timestamp: Number(timestamp), receipt_index: index, ...receipt };
}
