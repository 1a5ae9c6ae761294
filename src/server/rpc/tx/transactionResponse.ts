import type { RpcTransactionResponse, RpcTransactionWithReceiptsResponse } from "../../../../generated/rpc/types.js";
import type { TransactionStatus } from "../../../chain/node.js";

/**
 * nearcore's tx-status result: just `{"final_execution_status":"NONE"}` before inclusion,
 * otherwise the outcome flattened beside its status (receipts too when asked for).
 */
export function transactionResponse(status: TransactionStatus): RpcTransactionResponse;
export function transactionResponse(status: TransactionStatus, withReceipts: true): RpcTransactionWithReceiptsResponse;
export function transactionResponse(
  status: TransactionStatus,
  withReceipts = false,
): RpcTransactionResponse | RpcTransactionWithReceiptsResponse {
  if (status.outcome === undefined || status.finalExecutionStatus === "NONE") return { final_execution_status: "NONE" };
  const response = { final_execution_status: status.finalExecutionStatus, ...status.outcome };
  return withReceipts ? { ...response, receipts: status.receipts ?? [] } : response;
}
