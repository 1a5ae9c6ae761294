import { base58Encode } from "@shardkit/primitives/base58";
import type { Block, Chain } from "../../chain/node.js";
import type { ChunkResult } from "../../chain/runtime/applyChunk.js";
import { toReceiptView, type Receipt, type ReceiptView } from "../../chain/runtime/receipt.js";
import { toSignedTransactionView } from "../../chain/transaction/index.js";
import { blockOutcomes, type OutcomeBlock } from "../../chain/views/blockOutcomes.js";
import type { ExecutedReceipt, HistoryBlockInput, IncludedTransaction } from "./HistoryBuilder.js";
import { historyBlockRow } from "./historyBlockRow.js";
import type { BlockRow } from "./HistoryStore.js";

/**
 * What the history index needs of one of the chain's blocks, as plain data that a worker
 * thread can be sent (structured clone: no class instances, no functions): the chain's own
 * values (decoded transactions, raw outcomes), not their views, so that the costly part (views,
 * base58) runs where the index is built.
 */
export interface HistoryBlockData {
  readonly block: OutcomeBlock;
  /** Unix nanoseconds, decimal. */
  readonly timestamp: string;
  readonly gasPrice: string;
  /** The block's row as if it did nothing (the builder adds what it did). */
  readonly row: BlockRow;
  /** Per chunk (shard index order): its transactions with outcomes and its receipts' outcomes. */
  readonly chunks: readonly Pick<ChunkResult, "included" | "receiptOutcomes">[];
  /** Per executed receipt, in execution order over the chunks: the receipt (undefined: a transaction's local receipt, not kept) and its shard. */
  readonly receipts: readonly { readonly receipt: Receipt | undefined; readonly shardId: number }[];
  /** Per chunk (shard index order): the receipts that join it, the ones its shard's previous chunk sent (nearcore's `prev_outgoing_receipts`). */
  readonly incoming: readonly (readonly Receipt[])[];
  /** Per chunk: the local receipts of its transactions to their own signer, in order (as the chain recorded them, with the price their gas was bought at). */
  readonly local: readonly (readonly Receipt[])[];
}

/** A block of `chain` as HistoryBlockData (cheap: lookups and references, no views). */
export function historyBlockData(chain: Chain, block: Block): HistoryBlockData {
  const genesis = block.height === chain.genesisBlock.height;
  const results = genesis ? [] : chain.chunkResults(block);
  const chunks = results.map(({ included, receiptOutcomes }) => ({ included, receiptOutcomes }));
  const receipts = results.flatMap(({ receiptOutcomes }) =>
    receiptOutcomes.map((outcome) => ({ receipt: chain.receiptRecord(base58Encode(outcome.id)), shardId: chain.shardLayout.shardIdOf(outcome.executorId) })),
  );
  // Every block has a new chunk per shard, so a chunk's receipts are what the previous block's chunk of its shard sent.
  const previous = genesis ? undefined : chain.blockByHeight(block.height - 1);
  const local = results.map(({ included }) =>
    included.flatMap(({ stx, outcome }) => {
      const id = outcome.receiptIds[0];
      const receipt = stx.transaction.signerId === stx.transaction.receiverId && id !== undefined ? chain.receiptRecord(base58Encode(id)) : undefined;
      return receipt === undefined ? [] : [receipt];
    }),
  );
  const incoming = previous === undefined || previous.height === chain.genesisBlock.height ? [] : chain.chunkResults(previous).map(({ outgoing }) => outgoing);
  return {
    block: {
      height: block.height,
      hash: block.hash,
      // No leaves, so no proofs: FastNEAR's history shapes carry none (HistoryStore's historyOutcome),
      // and the leaves are thousands of small arrays to clone to the worker.
      outcomeLeaves: [],
      view: { chunks: block.view.chunks.map(({ shard_id, height_included }) => ({ shard_id, height_included })) },
    },
    timestamp: block.timestampNs.toString(),
    gasPrice: block.view.header.gas_price,
    row: historyBlockRow(chain, block),
    chunks,
    receipts,
    incoming,
    local,
  };
}

/**
 * The builder's input for a block: the transactions its new chunks included and the receipts
 * it executed, with their outcome views (without proofs: see historyBlockData).
 */
export function historyBlockInput(data: HistoryBlockData): HistoryBlockInput {
  const transactions: IncludedTransaction[] = [];
  const appeared: ReceiptView[] = [];
  const receipts: ExecutedReceipt[] = [];
  let txIndex = 0;
  for (const [shardIndex, chunk] of blockOutcomes(data.block, data.chunks).entries()) {
    if (chunk.isNew) {
      for (const { hash, stx, view } of chunk.transactions) {
        transactions.push({ hash, index: txIndex++, shardId: chunk.shardId, transaction: toSignedTransactionView(stx), outcome: view });
      }
      for (const receipt of [...(data.local[shardIndex] ?? []), ...(data.incoming[shardIndex] ?? [])]) appeared.push(toReceiptView(receipt));
    }
    for (const { outcome, view } of chunk.receipts) {
      const executed = data.receipts[receipts.length];
      receipts.push({
        id: view.id,
        receiptIds: view.outcome.receipt_ids,
        gasBurnt: outcome.gasBurnt,
        tokensBurnt: outcome.tokensBurnt,
        logs: view.outcome.logs,
        status: view.outcome.status,
        receipt: executed?.receipt === undefined ? undefined : toReceiptView(executed.receipt),
        shardId: executed?.shardId ?? chunk.shardId,
        view,
      });
    }
  }
  const { row } = data;
  return {
    height: data.block.height,
    hash: data.block.hash,
    timestamp: data.timestamp,
    gasPrice: data.gasPrice,
    row: (work) => ({ ...row, num_transactions: work.transactions, num_receipts: work.receipts, gas_burnt: work.gasBurnt.toString(), tokens_burnt: work.tokensBurnt.toString() }),
    transactionCount: txIndex,
    transactions,
    appeared,
    receipts,
  };
}
