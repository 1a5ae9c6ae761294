import { base58Encode } from "@shardkit/primitives/base58";
import { base64Encode } from "../primitives/base64.js";
import { toSignedTransactionView, type DecodedSignedTransaction, type SignedTransactionView } from "../transaction/index.js";
import type { TxExecutionErrorJson } from "./actionError.js";
import { toExecutionOutcomeView, type ExecutionOutcome, type ExecutionOutcomeWithIdView, type MerklePathItem } from "./executionOutcome.js";
import { toReceiptView, type Receipt, type ReceiptView } from "./receipt.js";

/** nearcore `TxExecutionStatus` (the `final_execution_status` of tx-status results). */
export type TxExecutionStatus = "NONE" | "INCLUDED" | "EXECUTED_OPTIMISTIC" | "INCLUDED_FINAL" | "EXECUTED" | "FINAL";

/** nearcore `FinalExecutionStatus`. */
export type FinalExecutionStatus = "NotStarted" | "Started" | { Failure: TxExecutionErrorJson } | { SuccessValue: string };

/** nearcore `FinalExecutionOutcomeView`. */
export interface FinalExecutionOutcomeView {
  status: FinalExecutionStatus;
  transaction: SignedTransactionView;
  transaction_outcome: ExecutionOutcomeWithIdView;
  receipts_outcome: ExecutionOutcomeWithIdView[];
}

/** What `Chain.transactionStatus` answers, computed against the current head. */
export interface TransactionStatus {
  signerId: string;
  finalExecutionStatus: TxExecutionStatus;
  /** Present once the transaction is in a block. */
  outcome?: FinalExecutionOutcomeView;
  /**
   * The receipts of `outcome.receipts_outcome`, in the same order (EXPERIMENTAL_tx_status).
   * As nearcore (chain.rs `get_final_transaction_result_with_receipt`), a transaction to its
   * signer leaves out its own first receipt: nearcore never stores local receipts.
   */
  receipts?: ReceiptView[];
}

/** An outcome and the block whose chunk produced it. */
export interface OutcomeRecord {
  readonly outcome: ExecutionOutcome;
  readonly blockHeight: number;
  readonly blockHash: string;
}

export interface ExecutionLookup {
  /** By base58 id (transaction hash or receipt id). */
  outcome(id: string): OutcomeRecord | undefined;
  receipt(id: string): Receipt | undefined;
  /** True when the block at this height is final (at or below head.last_final_block). */
  isFinal(height: number): boolean;
  /** The outcome's merkle path to its chunk's outcome root (`proof`; [] when absent). */
  proof?(record: OutcomeRecord): MerklePathItem[];
}

function withId(lookup: ExecutionLookup, r: OutcomeRecord): ExecutionOutcomeWithIdView {
  return { proof: lookup.proof?.(r) ?? [], block_hash: r.blockHash, id: base58Encode(r.outcome.id), outcome: toExecutionOutcomeView(r.outcome) };
}

/** nearcore chain.rs `get_recursive_transaction_results`: executed receipts, depth first from the transaction. */
function receiptOutcomes(lookup: ExecutionLookup, tx: OutcomeRecord): OutcomeRecord[] {
  const out: OutcomeRecord[] = [];
  const seen = new Set<string>();
  const visit = (ids: readonly Uint8Array[]): void => {
    for (const id of ids) {
      const key = base58Encode(id);
      if (seen.has(key)) continue;
      seen.add(key);
      const record = lookup.outcome(key);
      if (record === undefined) continue;
      out.push(record);
      visit(record.outcome.receiptIds);
    }
  };
  visit(tx.outcome.receiptIds);
  return out;
}

/**
 * nearcore chain.rs `get_execution_status`: follow SuccessReceiptId links from the
 * transaction; the first receipt that ended gives the status; a link not executed yet is
 * "Started".
 */
function finalStatus(tx: OutcomeRecord, receipts: readonly OutcomeRecord[]): FinalExecutionStatus {
  let lookingFor = base58Encode(tx.outcome.id);
  for (const r of [tx, ...receipts]) {
    if (base58Encode(r.outcome.id) !== lookingFor) continue;
    const s = r.outcome.status;
    if (s.kind === "SuccessReceiptId") lookingFor = base58Encode(s.receiptId);
    else if (s.kind === "Failure") return { Failure: s.error };
    else return { SuccessValue: base64Encode(s.value) };
  }
  return "Started";
}

/**
 * nearcore view_client_actor.rs `get_tx_execution_status`. "Executed ignoring refunds" means
 * every receipt id listed by the transaction and by each receipt outcome, except the last id
 * of each receipt outcome (taken to be its refund), has an outcome; "including refunds"
 * counts the last ids too. FINAL also needs every receipt outcome's block to be final.
 */
function executionStatus(lookup: ExecutionLookup, tx: OutcomeRecord, receipts: readonly OutcomeRecord[]): TxExecutionStatus {
  const awaiting = new Set<string>(tx.outcome.receiptIds.map((id) => base58Encode(id)));
  const awaitingNonRefund = new Set(awaiting);
  for (const r of receipts) {
    const ids = r.outcome.receiptIds.map((id) => base58Encode(id));
    ids.forEach((id, i) => {
      awaiting.add(id);
      if (i < ids.length - 1) awaitingNonRefund.add(id);
    });
  }
  const executed = new Set(receipts.map((r) => base58Encode(r.outcome.id)));
  const subset = (s: Set<string>) => [...s].every((id) => executed.has(id));
  const executedIgnoringRefunds = subset(awaitingNonRefund);
  if (!lookup.isFinal(tx.blockHeight)) return executedIgnoringRefunds ? "EXECUTED_OPTIMISTIC" : "INCLUDED";
  if (!executedIgnoringRefunds) return "INCLUDED_FINAL";
  if (!subset(awaiting)) return "EXECUTED";
  return receipts.every((r) => lookup.isFinal(r.blockHeight)) ? "FINAL" : "EXECUTED";
}

/** The status of an included transaction (nearcore `tx` / `EXPERIMENTAL_tx_status`). */
export function includedTransactionStatus(lookup: ExecutionLookup, stx: DecodedSignedTransaction): TransactionStatus {
  const signerId = stx.transaction.signerId;
  const tx = lookup.outcome(base58Encode(stx.hash));
  if (tx === undefined) return { signerId, finalExecutionStatus: "NONE" };
  const receipts = receiptOutcomes(lookup, tx);
  const first = tx.outcome.receiptIds[0];
  const localReceipt = stx.transaction.signerId === stx.transaction.receiverId && first !== undefined ? base58Encode(first) : undefined;
  const views: ReceiptView[] = [];
  for (const r of receipts) {
    const id = base58Encode(r.outcome.id);
    const receipt = id === localReceipt ? undefined : lookup.receipt(id);
    if (receipt !== undefined) views.push(toReceiptView(receipt));
  }
  return {
    signerId,
    finalExecutionStatus: executionStatus(lookup, tx, receipts),
    outcome: {
      status: finalStatus(tx, receipts),
      transaction: toSignedTransactionView(stx),
      transaction_outcome: withId(lookup, tx),
      receipts_outcome: receipts.map((r) => withId(lookup, r)),
    },
    receipts: views,
  };
}
