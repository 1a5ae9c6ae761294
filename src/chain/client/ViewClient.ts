import { ShardkitError } from "@shardkit/primitives/ShardkitError";
import type { Block } from "../blocks/Block.js";
import type { BlockHistory } from "../blocks/BlockHistory.js";
import type { LightClientViews } from "../blocks/LightClientViews.js";
import type { InvalidTxErrorJson } from "../runtime/invalidTxError.js";
import { toReceiptView, type ReceiptView } from "../runtime/receipt.js";
import { includedTransactionStatus, type ExecutionLookup, type TransactionStatus } from "../runtime/transactionStatus.js";
import { StateView, type ViewHost } from "../state/StateView.js";
import type { DecodedSignedTransaction } from "../transaction/index.js";

/** Receipts a receipt-to-transaction walk goes up at most (nearcore's `RECEIPT_TO_TX_MAX_DEPTH`). */
export const RECEIPT_TO_TX_MAX_DEPTH = 1000;

/** A receipt chain longer than RECEIPT_TO_TX_MAX_DEPTH (nearcore `DepthExceeded`). */
export class ReceiptDepthExceededError extends ShardkitError<"DEPTH_EXCEEDED"> {
  override readonly name = "ReceiptDepthExceededError";
  constructor(
    readonly receiptId: string,
    readonly limit: number,
  ) {
    super("DEPTH_EXCEEDED", `depth limit ${limit} exceeded when resolving receipt ${receiptId}`);
  }
}

/** What the view client reads besides the history: the pool and the final height. */
export interface ViewClientParts {
  readonly history: BlockHistory;
  readonly lightClient: LightClientViews;
  readonly host: ViewHost;
  /** A transaction accepted into the pool and not yet in a block. */
  readonly pooledTransaction: (hash: string) => DecodedSignedTransaction | undefined;
  /** Height of the last final block. */
  readonly finalHeight: () => number;
}

/**
 * Reads, after nearcore's ViewClient: the state after any block (`at`), and what became of a
 * transaction or receipt. It never changes the chain.
 */
export class ViewClient {
  constructor(private readonly parts: ViewClientParts) {}

  /** The state after `block` (one of this chain's blocks). */
  at(block: Block): StateView {
    return new StateView(block, this.parts.host);
  }

  /**
   * A transaction's status against the current head, or undefined for a transaction this
   * chain never accepted (or dropped: see `droppedTransaction`). Pooled: NONE without an
   * outcome; included: the nearcore FinalExecutionOutcomeView with all its receipts.
   */
  transactionStatus(hash: string): TransactionStatus | undefined {
    const pooled = this.parts.pooledTransaction(hash);
    if (pooled !== undefined) return { signerId: pooled.transaction.signerId, finalExecutionStatus: "NONE" };
    const stx = this.parts.history.includedTransaction(hash);
    return stx === undefined ? undefined : includedTransactionStatus(this.lookup, stx);
  }

  /** Why an accepted transaction was left out of a block (it no longer verified), if it was and was not accepted again. */
  droppedTransaction(hash: string): InvalidTxErrorJson | undefined {
    if (this.parts.pooledTransaction(hash) !== undefined || this.parts.history.includedTransaction(hash) !== undefined) return undefined;
    return this.parts.history.droppedReason(hash);
  }

  /** A receipt this chain created (executed or not), as nearcore's ReceiptView. */
  receipt(receiptId: string): ReceiptView | undefined {
    const r = this.parts.history.receipt(receiptId);
    return r === undefined ? undefined : toReceiptView(r);
  }

  /**
   * The transaction a receipt descends from, and its signer (nearcore
   * `EXPERIMENTAL_receipt_to_tx`): walks from the receipt to the receipt or transaction whose
   * execution created it, up to the transaction, at most RECEIPT_TO_TX_MAX_DEPTH steps
   * (then ReceiptDepthExceededError). Undefined for a receipt this chain never created.
   */
  receiptOrigin(receiptId: string): { transactionHash: string; senderId: string } | undefined {
    const { history } = this.parts;
    let id = receiptId;
    for (let depth = 0; depth < RECEIPT_TO_TX_MAX_DEPTH; depth++) {
      const creator = history.receiptCreator(id);
      if (creator === undefined) return undefined;
      const tx = history.includedTransaction(creator);
      if (tx !== undefined) return { transactionHash: creator, senderId: tx.transaction.signerId };
      id = creator;
    }
    throw new ReceiptDepthExceededError(receiptId, RECEIPT_TO_TX_MAX_DEPTH);
  }

  /** Transaction and receipt lookups in the chain store, with outcome proofs. */
  private readonly lookup: ExecutionLookup = {
    outcome: (id) => this.parts.history.outcome(id),
    receipt: (id) => this.parts.history.receipt(id),
    isFinal: (height) => height <= this.parts.finalHeight(),
    proof: (record) => this.parts.lightClient.outcomePath(record),
  };
}
