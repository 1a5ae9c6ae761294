import type { DecodedSignedTransaction } from "../transaction/index.js";
import type { StakeProposal } from "./ActionResult.js";
import type { ReceiptExecution } from "./applyActionReceipt.js";
import type { ApplyContext } from "./ApplyContext.js";
import { DelayedReceiptQueue } from "./DelayedReceiptQueue.js";
import type { ExecutionOutcome } from "./executionOutcome.js";
import type { InvalidTxErrorJson } from "./invalidTxError.js";
import { applyDistribution, isDistribution } from "./globalContractDistribution.js";
import { processReceipt } from "./processReceipt.js";
import { processTransaction } from "./processTransaction.js";
import { UPDATED_DELAYED_RECEIPTS, VALIDATOR_ACCOUNTS_UPDATE } from "./StateChangeCause.js";
import { isPromiseYield, type Receipt } from "./receipt.js";
import { resolvePromiseYieldTimeouts } from "./PromiseYieldTimeouts.js";
import { getAccount, setAccount } from "./stateAccess.js";
import type { StateUpdate } from "./StateUpdate.js";

export interface ChunkInput {
  readonly ctx: ApplyContext;
  /** The shard's state after the previous block (plus staged writes); receives the chunk's writes. */
  readonly su: StateUpdate;
  /** Gas the chunk may burn before receipts start waiting in the delayed queue. */
  readonly gasLimit: bigint;
  /** Transactions of signers on this shard, in inclusion order. */
  readonly transactions: readonly DecodedSignedTransaction[];
  /** Receipts sent to this shard by the previous block's chunks. */
  readonly incoming: readonly Receipt[];
  /** Extra per-transaction check at inclusion (the validity period). */
  readonly checkTransaction: (stx: DecodedSignedTransaction) => InvalidTxErrorJson | undefined;
  /** At an epoch boundary: account → the stake it keeps (the rest of `locked` is returned). */
  readonly stakeReturns: ReadonlyMap<string, bigint>;
}

export interface ChunkResult {
  /** Transactions in the chunk with their outcomes, in order. */
  readonly included: { readonly stx: DecodedSignedTransaction; readonly outcome: ExecutionOutcome }[];
  /** Transactions that no longer verified and were left out. */
  readonly dropped: { readonly stx: DecodedSignedTransaction; readonly error: InvalidTxErrorJson }[];
  /** Outcomes of the receipts executed, in execution order. */
  readonly receiptOutcomes: ExecutionOutcome[];
  /** Every receipt created by this chunk (transactions' receipts and receipts' new receipts). */
  readonly created: Receipt[];
  /** Per receipt of `created`: the hash of the transaction or the id of the receipt whose execution created it. */
  readonly createdBy: Uint8Array[];
  /** Receipts for the next block, to be routed to their receivers' shards. */
  readonly outgoing: Receipt[];
  readonly gasUsed: bigint;
  /** Tokens removed from the supply. */
  readonly balanceBurnt: bigint;
  readonly proposals: StakeProposal[];
  /** Receipts left in the delayed queue. */
  readonly delayedReceipts: number;
}

/**
 * Applies one shard's chunk, in nearcore's order (runtime lib.rs `apply`): stake returns at an
 * epoch boundary, then the transactions (each becomes a receipt; one to the signer itself is
 * "local" and runs in this chunk, any other waits for the next block), then local receipts,
 * the delayed queue (FIFO) and incoming receipts. Once the gas burnt reaches the limit, local
 * and incoming receipts go to the back of the delayed queue and the queue stops draining.
 * Every receipt created while executing goes out for the next block, whatever its shard,
 * except PromiseYield receipts, stored at once; then yields that timed out get their
 * PromiseResume receipts (nearcore `resolve_promise_yield_timeouts`).
 */
export function applyChunk(input: ChunkInput): ChunkResult {
  const { ctx, su, gasLimit } = input;
  const result: { -readonly [K in keyof ChunkResult]: ChunkResult[K] } = {
    included: [],
    dropped: [],
    receiptOutcomes: [],
    created: [],
    createdBy: [],
    outgoing: [],
    gasUsed: 0n,
    balanceBurnt: 0n,
    proposals: [],
    delayedReceipts: 0,
  };

  for (const [accountId, keep] of input.stakeReturns) {
    const account = getAccount(su, accountId);
    if (account === undefined || account.locked <= keep) continue;
    setAccount(su, accountId, { ...account, amount: account.amount + account.locked - keep, locked: keep });
  }
  su.commit(VALIDATOR_ACCOUNTS_UPDATE);

  const local: Receipt[] = [];
  for (const stx of input.transactions) {
    const error = input.checkTransaction(stx);
    const processed = error === undefined ? processTransaction(ctx, su, stx) : { ok: false as const, error };
    if (!processed.ok) {
      result.dropped.push({ stx, error: processed.error });
      continue;
    }
    result.included.push({ stx, outcome: processed.outcome });
    result.gasUsed += processed.outcome.gasBurnt;
    result.balanceBurnt += processed.burnt;
    const receipt = processed.receipt;
    if (receipt === undefined) continue;
    result.created.push(receipt);
    result.createdBy.push(stx.hash);
    if (receipt.receiverId === stx.transaction.signerId) local.push(receipt);
    else result.outgoing.push(receipt);
  }

  const record = (execution: ReceiptExecution | undefined): void => {
    if (execution === undefined) return;
    result.receiptOutcomes.push(execution.outcome);
    result.created.push(...execution.newReceipts);
    for (let i = 0; i < execution.newReceipts.length; i++) result.createdBy.push(execution.outcome.id);
    result.gasUsed += execution.outcome.gasBurnt;
    result.balanceBurnt += execution.burnt;
    result.proposals.push(...execution.proposals);
    // PromiseYield receipts are instant (nearcore InstantPromiseYield): stored right away, never sent.
    const instant: Receipt[] = [];
    for (const r of execution.newReceipts) (isPromiseYield(r) ? instant : result.outgoing).push(r);
    for (const r of instant) record(processReceipt(ctx, su, r));
  };
  // A global contract distribution stores its code and goes on to the next shard; no outcome.
  const run = (receipt: Receipt): void => {
    if (!isDistribution(receipt)) return record(processReceipt(ctx, su, receipt));
    const next = applyDistribution(ctx, su, receipt);
    if (next !== undefined) {
      result.created.push(next);
      result.createdBy.push(receipt.receiptId);
      result.outgoing.push(next);
    }
  };
  const delayed = DelayedReceiptQueue.load(su);
  const full = (): boolean => result.gasUsed >= gasLimit;

  // Queue writes are committed at once so that a failing receipt's rollback cannot undo them.
  const delay = (receipt: Receipt): void => {
    delayed.push(su, receipt);
    su.commit(UPDATED_DELAYED_RECEIPTS);
  };
  for (const receipt of local) {
    if (full()) delay(receipt);
    else run(receipt);
  }
  while (delayed.length > 0 && !full()) {
    const receipt = delayed.pop(su)!;
    su.commit(UPDATED_DELAYED_RECEIPTS);
    run(receipt);
  }
  for (const receipt of input.incoming) {
    if (full()) delay(receipt);
    else run(receipt);
  }
  // Yields that got no data in time resume with none in the next block.
  for (const { resume, yieldReceiptId } of resolvePromiseYieldTimeouts(su, ctx.blockHeight, full)) {
    result.created.push(resume);
    result.createdBy.push(yieldReceiptId);
    result.outgoing.push(resume);
  }
  delayed.save(su);
  su.commit(UPDATED_DELAYED_RECEIPTS);
  result.delayedReceipts = delayed.length;
  return result;
}
