import type { BlockCommit } from "../../chain/blockCommit.js";
import type { Chain } from "../../chain/node.js";
import { base58Encode } from "@shardkit/primitives/base58";
import type { ExecutionOutcome } from "../../chain/runtime/executionOutcome.js";
import type { DecodedSignedTransaction } from "../../chain/transaction/index.js";
import type { Logger } from "./Logger.js";
import { isJsonObject } from "@shardkit/primitives/isJsonObject";

/**
 * Logs what each block executed, from the chain's block-commit event: one info line per
 * transaction included (its conversion into a receipt), one per receipt outcome (refunds from
 * `system` at debug), one debug line per block. The chain delivers commits on a later turn
 * of the event loop, so block production never waits for the log.
 * Returns an unsubscribe function.
 */
export function logOutcomes(chain: Chain, logger: Logger): () => void {
  if (!logger.enabled("info")) return () => {};
  // Commits reach subscribers after the block's production, so logging never delays it.
  return chain.onBlockCommit((commit) => logCommit(chain, logger, commit), "outcome-log");
}

function logCommit(chain: Chain, logger: Logger, commit: BlockCommit): void {
  const { block, receiptOutcomes } = commit;
  logger.debug("block", { height: block.height, hash: block.hash, receipts: receiptOutcomes.length });
  for (const chunk of block.view.chunks) {
    for (const stx of chain.chunkBodies.get(chunk.chunk_hash)?.transactions ?? []) logTransaction(chain, logger, block.height, stx);
  }
  for (const outcome of receiptOutcomes) logOutcome(chain, logger, block.height, outcome);
}

function logOutcome(chain: Chain, logger: Logger, height: number, outcome: ExecutionOutcome): void {
  const receiptId = base58Encode(outcome.id);
  const receipt = chain.receipt(receiptId);
  const predecessor = receipt?.predecessor_id;
  const refund = predecessor === "system";
  if (refund && !logger.enabled("debug")) return;
  const actions = receipt !== undefined && "Action" in receipt.receipt ? receipt.receipt.Action.actions.map(actionName) : undefined;
  const { status } = outcome;
  const fields = {
    height,
    receipt_id: receiptId,
    predecessor_id: predecessor,
    receiver_id: outcome.executorId,
    actions,
    status: status.kind === "Failure" ? "failure" : "success",
    error: status.kind === "Failure" ? JSON.stringify(status.error) : undefined,
    gas_burnt: Number(outcome.gasBurnt),
    tokens_burnt: outcome.tokensBurnt.toString(),
    logs: outcome.logs.length > 0 ? outcome.logs : undefined,
  };
  if (refund) logger.debug("refund", fields);
  else logger.info("receipt", fields);
}

function logTransaction(chain: Chain, logger: Logger, height: number, stx: DecodedSignedTransaction): void {
  const hash = base58Encode(stx.hash);
  const outcome = chain.transactionStatus(hash)?.outcome?.transaction_outcome.outcome;
  if (outcome === undefined) return;
  const failure = typeof outcome.status === "object" && "Failure" in outcome.status ? outcome.status.Failure : undefined;
  logger.info("transaction", {
    height,
    tx_hash: hash,
    signer_id: stx.transaction.signerId,
    receiver_id: stx.transaction.receiverId,
    nonce: stx.transaction.nonce.toString(),
    actions: stx.transaction.actions.map((action) => (action.type === "FunctionCall" ? `FunctionCall(${action.methodName})` : action.type)),
    status: failure === undefined ? "success" : "failure",
    error: failure === undefined ? undefined : JSON.stringify(failure),
    receipt_id: outcome.receipt_ids[0],
    gas_burnt: outcome.gas_burnt,
    tokens_burnt: outcome.tokens_burnt,
  });
}

/** "Transfer", "FunctionCall", ... from a nearcore ActionView (a string or a one-key object). */
function actionName(action: unknown): string {
  if (typeof action === "string") return action;
  if (isJsonObject(action)) {
    const call = action.FunctionCall;
    if (isJsonObject(call) && typeof call.method_name === "string") return `FunctionCall(${call.method_name})`;
    return Object.keys(action)[0] ?? "?";
  }
  return "?";
}
