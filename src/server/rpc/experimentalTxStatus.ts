import type { RelayedResult } from "../../../generated/rpc/methods.js";
import type { ExperimentalTxStatusParams, ExperimentalTxStatusResult } from "../../../generated/rpc/types.js";
import type { RpcContext } from "./context.js";
import { forwardToUpstream } from "./forkForward.js";
import { isUpstreamTransaction } from "./tx.js";
import { lookupTransaction } from "./tx/lookupTransaction.js";
import { transactionResponse } from "./tx/transactionResponse.js";

/** `EXPERIMENTAL_tx_status`: as `tx`, with the receipts themselves. */
export async function experimentalTxStatus(params: ExperimentalTxStatusParams, ctx: RpcContext): Promise<ExperimentalTxStatusResult | RelayedResult> {
  if (isUpstreamTransaction(ctx, params)) return forwardToUpstream(ctx, "EXPERIMENTAL_tx_status", params);
  return transactionResponse(await lookupTransaction(ctx, params), true);
}
