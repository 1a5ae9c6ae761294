import { base58Encode } from "../primitives/base58.js";
import type { StoredBlock } from "./ChainStore.js";

/** The base58 ids a stored block is found by: its transactions and the receipts it created. */
export function blockIndexKeys(block: StoredBlock): { transactions: string[]; receipts: string[] } {
  const transactions: string[] = [];
  const receipts: string[] = [];
  for (const r of block.chunkResults) {
    for (const { stx } of r.included) transactions.push(base58Encode(stx.hash));
    for (const receipt of r.created) receipts.push(base58Encode(receipt.receiptId));
  }
  return { transactions, receipts };
}
