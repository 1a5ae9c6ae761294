import type { Block } from "./blocks/Block.js";
import type { ExecutionOutcome } from "./runtime/executionOutcome.js";
import type { KeyStateChanges } from "./runtime/StateChangeCause.js";

/**
 * What a produced block did, for subscribers that follow the chain (the REST indexer):
 * the block, the outcomes of the receipts its chunks executed (shard by shard, in execution
 * order; the receipts themselves are `Chain.receipt(base58(outcome.id))`), the trie keys
 * (latin1) each shard's chunk wrote, staged writes included, and the state changes with
 * their causes. Values are read from the block's post-state, so a subscriber that runs
 * later still sees this block's state.
 */
export interface BlockCommit {
  readonly block: Block;
  readonly receiptOutcomes: readonly ExecutionOutcome[];
  /** Per shard index: every key written or deleted by the block. */
  readonly changedKeys: readonly (readonly string[])[];
  /**
   * Per shard index, in trie key order: every write of an account, access key, contract code
   * or contract data key, each with its cause, in the order the runtime committed them
   * (nearcore's `RawStateChangesWithTrieKey`; other columns are left out, as nearcore does).
   */
  readonly stateChanges: readonly (readonly KeyStateChanges[])[];
}
