import { base58Encode } from "@shardkit/primitives/base58";
import type { StoredBlock } from "./ChainStore.js";

/** The base58 ids a stored block is found by, one list per index. */
export interface BlockIndexKeys {
  /** Transactions its chunks included. */
  readonly transactions: string[];
  /** Receipts its chunks created. */
  readonly receipts: string[];
  /** Receipts its chunks executed. */
  readonly receiptOutcomes: string[];
  /** Transactions its chunks dropped (they no longer verified). */
  readonly dropped: string[];
  /** Its chunks. */
  readonly chunks: readonly string[];
}

export function blockIndexKeys(block: StoredBlock): BlockIndexKeys {
  const keys: BlockIndexKeys = { transactions: [], receipts: [], receiptOutcomes: [], dropped: [], chunks: block.chunkHashes };
  for (const r of block.chunkResults) {
    for (const { stx } of r.included) keys.transactions.push(base58Encode(stx.hash));
    for (const receipt of r.created) keys.receipts.push(base58Encode(receipt.receiptId));
    for (const outcome of r.receiptOutcomes) keys.receiptOutcomes.push(base58Encode(outcome.id));
    for (const { stx } of r.dropped) keys.dropped.push(base58Encode(stx.hash));
  }
  return keys;
}
