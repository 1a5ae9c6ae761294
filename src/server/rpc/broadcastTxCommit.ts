import type { BroadcastTxCommitParams, BroadcastTxCommitResult } from "../../../generated/rpc/types.js";
import type { RpcContext } from "./context.js";
import { sendTx } from "./sendTx.js";

/** `broadcast_tx_commit`: `send_tx` waiting for EXECUTED_OPTIMISTIC (a `wait_until` is ignored). */
export function broadcastTxCommit(params: BroadcastTxCommitParams, ctx: RpcContext): Promise<BroadcastTxCommitResult> {
  return sendTx({ signed_tx_base64: params.signed_tx_base64, wait_until: "EXECUTED_OPTIMISTIC" }, ctx);
}
