import type { Block } from "./blocks/Block.js";
import type { ExecutionOutcome } from "./runtime/executionOutcome.js";
import type { BlockStateChanges } from "./views/BlockStateChanges.js";

/**
 * What a produced block did, for subscribers that follow the chain (the REST indexer):
 * the block, the outcomes of the receipts its chunks executed (shard by shard, in execution
 * order; the receipts themselves are `Chain.receipt(base58(outcome.id))`), and its typed
 * state changes: every write of an account, access key, contract code or contract data
 * entry with its cause (staged sandbox patches included, as `migration`), in key order.
 */
export interface BlockCommit {
  readonly block: Block;
  readonly receiptOutcomes: readonly ExecutionOutcome[];
  readonly stateChanges: BlockStateChanges;
}
