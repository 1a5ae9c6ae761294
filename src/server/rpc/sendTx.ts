import type { SendTxParams, SendTxResult } from "../../../generated/rpc/types.js";
import type { RpcContext } from "./context.js";
import { awaitTransaction } from "./tx/awaitTransaction.js";
import { submitSignedTransaction } from "./tx/submitSignedTransaction.js";
import { transactionResponse } from "./tx/transactionResponse.js";

/**
 * `send_tx`: submit, then wait until the transaction reaches `wait_until` (default
 * EXECUTED_OPTIMISTIC). With NONE nearcore answers at once, without validating.
 */
export async function sendTx(params: SendTxParams, ctx: RpcContext): Promise<SendTxResult> {
  const waitUntil = params.wait_until ?? "EXECUTED_OPTIMISTIC";
  if (waitUntil === "NONE") {
    submitSignedTransaction(ctx, params.signed_tx_base64, false);
    return { final_execution_status: "NONE" };
  }
  const hash = submitSignedTransaction(ctx, params.signed_tx_base64);
  return transactionResponse(await awaitTransaction(ctx, hash, waitUntil));
}
