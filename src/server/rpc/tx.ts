import type { TxParams, TxResult } from "../../../generated/rpc/types.js";
import type { RpcContext } from "./context.js";
import { lookupTransaction } from "./tx/lookupTransaction.js";
import { transactionResponse } from "./tx/transactionResponse.js";

/** `tx`: a transaction's outcome once it reaches `wait_until` (default EXECUTED_OPTIMISTIC). */
export async function tx(params: TxParams, ctx: RpcContext): Promise<TxResult> {
  return transactionResponse(await lookupTransaction(ctx, params));
}
