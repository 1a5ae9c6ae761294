import type { BroadcastTxAsyncParams, BroadcastTxAsyncResult } from "../../../generated/rpc/types.js";
import type { RpcContext } from "./context.js";
import { submitSignedTransaction } from "./tx/submitSignedTransaction.js";

/** `broadcast_tx_async`: fire and forget; the result is the transaction hash (base58 string). */
export function broadcastTxAsync(params: BroadcastTxAsyncParams, ctx: RpcContext): BroadcastTxAsyncResult {
  return submitSignedTransaction(ctx, params.signed_tx_base64, false);
}
