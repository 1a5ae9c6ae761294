import type { InvalidTxErrorJson } from "./invalidTxError.js";

/** What the validity check needs to know about the chain. */
export interface CanonicalChain {
  /** Height of a known block, by base58 hash (undefined when unknown). */
  heightOf(blockHash: string): number | undefined;
  /** Hash of the canonical block at a height. */
  hashAt(height: number): string | undefined;
}

/**
 * nearcore chain store `check_transaction_validity_period`: the block a transaction names
 * must be known (else "Expired"), on the canonical chain (else "InvalidChain") and at most
 * `validityPeriod` blocks below `prevHeight`, the block the transaction is checked against
 * (the head at submission, the previous block at inclusion). shardkit has a single fork, so
 * InvalidChain only happens for a block that is known but not canonical.
 */
export function checkValidityPeriod(
  chain: CanonicalChain,
  prevHeight: number,
  baseBlockHash: string,
  validityPeriod: number,
): InvalidTxErrorJson | undefined {
  const baseHeight = chain.heightOf(baseBlockHash);
  if (baseHeight === undefined) return "Expired";
  if (prevHeight > baseHeight + validityPeriod) return "Expired";
  if (chain.hashAt(baseHeight) !== baseBlockHash) return "InvalidChain";
  return undefined;
}
