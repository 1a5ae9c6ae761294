import type { RpcTransactionStatusRequest } from "../../../../generated/rpc/types.js";
import type { TransactionStatus } from "../../../chain/node.js";
import { UnknownTransactionError } from "../../errors.js";
import type { RpcContext } from "../context.js";
import { awaitTransaction } from "./awaitTransaction.js";
import { checkSignedTransaction } from "./submitSignedTransaction.js";

/**
 * The status `tx` / `EXPERIMENTAL_tx_status` answer with. By hash: a transaction the node never
 * saw (or signed by another account) is UNKNOWN_TRANSACTION when waiting for NONE, otherwise
 * it is waited for until the timeout, as nearcore does. By signed transaction: an unknown one
 * is validated (INVALID_TRANSACTION when it fails) but not submitted, then treated the same.
 */
export async function lookupTransaction(ctx: RpcContext, params: RpcTransactionStatusRequest): Promise<TransactionStatus> {
  const waitUntil = params.wait_until ?? "EXECUTED_OPTIMISTIC";
  const byHash = params.signed_tx_base64 === undefined;
  const hash = byHash ? params.tx_hash : checkSignedTransaction(ctx, params.signed_tx_base64);
  const status = ctx.chain.transactionStatus(hash);
  const known = status !== undefined && (!byHash || status.signerId === params.sender_account_id);
  if (!known && waitUntil === "NONE") throw new UnknownTransactionError(hash);
  if (status !== undefined && !known) return awaitNever(ctx);
  return awaitTransaction(ctx, hash, waitUntil);
}

/** A transaction asked for under the wrong signer is never found: wait out the timeout. */
function awaitNever(ctx: RpcContext): ReturnType<typeof awaitTransaction> {
  return awaitTransaction(ctx, "", "FINAL");
}
