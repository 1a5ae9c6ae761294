import { base58Encode } from "../primitives/base58.js";
import type { DecodedSignedTransaction } from "../transaction/index.js";
import type { ChunkResult } from "./applyChunk.js";
import type { ExecutionOutcome } from "./executionOutcome.js";
import type { InvalidTxErrorJson } from "./invalidTxError.js";
import type { Receipt } from "./receipt.js";
import type { ExecutionLookup, OutcomeRecord } from "./transactionStatus.js";

/**
 * What the chain remembers of execution, by base58 id: accepted transactions (pooled or
 * included), the outcome of every transaction and receipt with its block, every receipt
 * created, and why transactions were dropped. In memory and unbounded (no garbage
 * collection yet), like the chain's blocks.
 */
export class ExecutionRecords {
  private readonly transactions = new Map<string, DecodedSignedTransaction>();
  private readonly outcomes = new Map<string, OutcomeRecord>();
  private readonly receipts = new Map<string, Receipt>();
  private readonly dropped = new Map<string, InvalidTxErrorJson>();

  /** A transaction accepted into the pool. */
  accept(hash: string, stx: DecodedSignedTransaction): void {
    this.transactions.set(hash, stx);
    this.dropped.delete(hash);
  }

  transaction(hash: string): DecodedSignedTransaction | undefined {
    return this.transactions.get(hash);
  }

  droppedReason(hash: string): InvalidTxErrorJson | undefined {
    return this.dropped.get(hash);
  }

  receipt(id: string): Receipt | undefined {
    return this.receipts.get(id);
  }

  /** Stores the effects of one chunk of a block. */
  recordChunk(blockHeight: number, blockHash: string, result: ChunkResult): void {
    const remember = (outcome: ExecutionOutcome) => this.outcomes.set(base58Encode(outcome.id), { outcome, blockHeight, blockHash });
    for (const { outcome } of result.included) remember(outcome);
    for (const outcome of result.receiptOutcomes) remember(outcome);
    for (const { stx, error } of result.dropped) {
      const hash = base58Encode(stx.hash);
      this.transactions.delete(hash);
      this.dropped.set(hash, error);
    }
    for (const receipt of result.created) this.receipts.set(base58Encode(receipt.receiptId), receipt);
  }

  /** The view the status computation needs; `isFinal` comes from the chain. */
  lookup(isFinal: (height: number) => boolean): ExecutionLookup {
    return { outcome: (id) => this.outcomes.get(id), receipt: (id) => this.receipts.get(id), isFinal };
  }
}
