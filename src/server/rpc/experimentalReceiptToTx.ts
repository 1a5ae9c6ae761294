import type { ExperimentalReceiptToTxParams, ExperimentalReceiptToTxResult } from "../../../generated/rpc/types.js";
import { ReceiptDepthExceededError } from "../../chain/client/ViewClient.js";
import { DepthExceededError, UnknownReceiptError } from "../errors.js";
import type { RpcContext } from "./context.js";

/** `EXPERIMENTAL_receipt_to_tx`: the transaction a receipt descends from. The scan hints are not needed (every receipt has its creator). */
export function experimentalReceiptToTx(params: ExperimentalReceiptToTxParams, ctx: RpcContext): ExperimentalReceiptToTxResult {
  let origin;
  try {
    origin = ctx.chain.receiptOrigin(params.receipt_id);
  } catch (error) {
    if (error instanceof ReceiptDepthExceededError) throw new DepthExceededError(error.receiptId, error.limit);
    throw error;
  }
  if (origin === undefined) throw new UnknownReceiptError(params.receipt_id);
  return { transaction_hash: origin.transactionHash, sender_account_id: origin.senderId };
}
