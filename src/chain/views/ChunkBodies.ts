import type { Block } from "../node.js";
import type { ChunkResult } from "../runtime/applyChunk.js";
import { toReceiptView, type Receipt, type ReceiptView } from "../runtime/receipt.js";
import { toSignedTransactionView, type SignedTransactionView } from "../transaction/signedTransactionView.js";
import type { DecodedSignedTransaction } from "../transaction/index.js";

/** What a chunk carries besides its header: its transactions and the receipts it sends on. */
export interface ChunkBody {
  readonly transactions: readonly DecodedSignedTransaction[];
  /** The chunk's outgoing receipts, in the order of its header's `outgoing_receipts_root`. */
  readonly receipts: readonly Receipt[];
}

const EMPTY: ChunkBody = { transactions: [], receipts: [] };

/**
 * The bodies of produced chunks by chunk hash, kept as the chain produces them. A chunk
 * the chain made without recording a body (the genesis chunks) is empty. In memory and
 * unbounded, like the chain's blocks; serving layers apply retention.
 *
 * The chain feeds it from `Chain.recordExecution`.
 */
export class ChunkBodies {
  private readonly bodies = new Map<string, ChunkBody>();

  /** Records the chunks of `block`: `results[i]` is the execution of shard index i. */
  record(block: Block, results: readonly ChunkResult[]): void {
    results.forEach((result, i) => {
      const chunk = block.view.chunks[i];
      if (chunk === undefined) return;
      this.bodies.set(chunk.chunk_hash, { transactions: result.included.map((t) => t.stx), receipts: [...result.outgoing] });
    });
  }

  get(chunkHash: string): ChunkBody {
    return this.bodies.get(chunkHash) ?? EMPTY;
  }
}


/** nearcore's `ChunkView` without its author: the chunk's header, transactions and receipts. */
export function chunkContentView(block: Block, shardIndex: number, body: ChunkBody): {
  header: Block["view"]["chunks"][number];
  transactions: SignedTransactionView[];
  receipts: ReceiptView[];
} {
  return {
    header: block.view.chunks[shardIndex]!,
    transactions: body.transactions.map(toSignedTransactionView),
    receipts: body.receipts.map(toReceiptView),
  };
}
