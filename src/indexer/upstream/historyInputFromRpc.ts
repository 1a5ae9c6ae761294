import type { BlockView, ExecutionOutcomeWithIdView, ReceiptView } from "../../chain/node.js";
import { gasPurchasePrice } from "../../chain/runtime/gasPricing.js";
import { ShardLayout } from "../../chain/shards/ShardLayout.js";
import type { SignedTransactionView } from "../../chain/transaction/index.js";
import type { ShardLayout as ShardLayoutView } from "../../../generated/rpc/types.js";
import { validateResult } from "../../../generated/rpc/validators.js";
import { localReceipt, type ExecutedReceipt, type HistoryBlockInput, type IncludedTransaction } from "../history/HistoryBuilder.js";
import { blockRowOfView } from "../history/historyBlockRow.js";
import { compareOutcomePositions } from "./outcomeOrder.js";
import type { RpcBlockAnswers } from "./UpstreamBlockSource.js";

/** The parts of nearcore's EXPERIMENTAL_tx_status answer the history reads. */
interface TxStatus {
  readonly transaction?: SignedTransactionView;
  readonly transaction_outcome?: ExecutionOutcomeWithIdView;
  readonly receipts_outcome?: readonly ExecutionOutcomeWithIdView[];
  readonly receipts?: readonly ReceiptView[];
}

/**
 * A block step's upstream answers as the HistoryBuilder's input, so the gateway writes the rows
 * `serve` writes. The receipts the block executed are those of the open transactions' trees
 * whose outcome is in this block. nearcore's RPC does not list a chunk's receipts in the order
 * it executed them, but each outcome's proof gives its place in its chunk's outcome tree, whose
 * leaves are in execution order: `receipt_index` is the position by shard, then by that place
 * (compareOutcomePositions), as `serve` numbers them; receipts of transactions the source does
 * not know are not counted.
 */
export function historyInputFromRpc(answers: RpcBlockAnswers, layout: ShardLayout, genesis: boolean, minGasPurchasePrice: bigint): HistoryBlockInput {
  const block = answers.block;
  if (!isChainBlockView(block)) throw new TypeError(`block ${answers.block.header.height} is not a block view`);
  const { height, hash } = block.header;
  const statuses = new Map<string, TxStatus>();
  for (const [txHash, status] of answers.statuses) if (isChainTxStatus(status)) statuses.set(txHash, status);
  const transactions: IncludedTransaction[] = [];
  const appeared: ReceiptView[] = [];
  // A local receipt (rebuilt by the builder) carries the price its gas was bought at.
  const gasPrice = gasPurchasePrice({ minGasPurchasePrice }, BigInt(block.header.gas_price)).toString();
  let index = 0;
  for (const chunk of answers.chunks) {
    for (const { hash: txHash } of chunk.transactions) {
      const status = statuses.get(txHash);
      const i = index++;
      if (status?.transaction === undefined || status.transaction_outcome === undefined) continue;
      const { transaction, transaction_outcome: outcome } = status;
      transactions.push({ hash: txHash, index: i, shardId: chunk.shardId, transaction, outcome });
      const local = outcome.outcome.receipt_ids[0];
      if (transaction.signer_id === transaction.receiver_id && local !== undefined) appeared.push(localReceipt(transaction, local, gasPrice));
    }
    for (const receipt of chunk.receipts) if (isChainReceiptView(receipt)) appeared.push(receipt);
  }
  const executed: (ExecutedReceipt & { readonly order: number })[] = [];
  for (const status of statuses.values()) {
    const views = new Map((status.receipts ?? []).map((r) => [r.receipt_id, r]));
    const tx = status.transaction;
    const first = status.transaction_outcome?.outcome.receipt_ids[0];
    for (const view of status.receipts_outcome ?? []) {
      const { id, outcome } = view;
      if (view.block_hash !== hash) continue;
      const receipt = views.get(id);
      const local = receipt === undefined && id === first && tx !== undefined && tx.signer_id === tx.receiver_id;
      if (receipt === undefined && !local) continue;
      executed.push({
        id,
        receiptIds: outcome.receipt_ids,
        gasBurnt: BigInt(outcome.gas_burnt),
        tokensBurnt: BigInt(outcome.tokens_burnt),
        logs: outcome.logs,
        status: outcome.status,
        receipt,
        shardId: layout.shardIdOf(outcome.executor_id),
        view,
        order: layout.shardIndexOf(outcome.executor_id),
      });
    }
  }
  executed.sort((a, b) => a.order - b.order || compareOutcomePositions(a.view.proof, b.view.proof));
  return {
    height,
    hash,
    timestamp: block.header.timestamp_nanosec,
    gasPrice,
    row: (work) => blockRowOfView(block, genesis, work),
    transactionCount: index,
    transactions,
    appeared,
    receipts: executed.map(({ order: _order, ...receipt }) => receipt),
  };
}

/**
 * The spec's views (what the source validated) read through the chain's own view types, which
 * the history builder takes: the same wire shapes, the chain's types narrower where shardkit
 * never sends a null (a genesis block's `prev_height`, which its history row ignores).
 */
function isChainBlockView(view: unknown): view is BlockView {
  return validateResult.block(view);
}

/** A chunk's receipt (the spec's ReceiptView, which the source validated) as the chain's view type. */
function isChainReceiptView(view: unknown): view is ReceiptView {
  return typeof view === "object" && view !== null && "receipt_id" in view && "receipt" in view;
}

/** A status with an outcome (not `{"final_execution_status": "NONE"}`), as the chain's view types. */
function isChainTxStatus(status: unknown): status is TxStatus {
  return validateResult.EXPERIMENTAL_tx_status(status) && "transaction_outcome" in status;
}

/** The shard layout of nearcore's `shard_layout` view (EXPERIMENTAL_genesis_config). */
export function shardLayoutFromView(view: ShardLayoutView): ShardLayout {
  if (view.V2 !== undefined) return ShardLayout.fromBoundaries(view.V2.boundary_accounts, view.V2.shard_ids);
  return ShardLayout.hashed(view.V0.num_shards);
}
