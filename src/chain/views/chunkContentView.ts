import type { Block } from "../blocks/Block.js";
import { toReceiptView, type ReceiptView } from "../runtime/receipt.js";
import { toSignedTransactionView, type SignedTransactionView } from "../transaction/signedTransactionView.js";
import type { ChunkBody } from "./ChunkBodies.js";
import { at } from "../must.js";

/** nearcore's `ChunkView` without its author: the chunk's header, transactions and receipts. */
export function chunkContentView(block: Block, shardIndex: number, body: ChunkBody): {
  header: Block["view"]["chunks"][number];
  transactions: SignedTransactionView[];
  receipts: ReceiptView[];
} {
  return {
    header: at(block.view.chunks, shardIndex),
    transactions: body.transactions.map(toSignedTransactionView),
    receipts: body.receipts.map(toReceiptView),
  };
}
