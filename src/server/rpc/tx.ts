import type { RelayedResult } from "../../../generated/rpc/methods.js";
import type { TxParams, TxResult } from "../../../generated/rpc/types.js";
import type { RpcContext } from "./context.js";
import { forwardToUpstream } from "./forkForward.js";
import { lookupTransaction } from "./tx/lookupTransaction.js";
import { transactionResponse } from "./tx/transactionResponse.js";

/**
 * `tx`: a transaction's outcome once it reaches `wait_until` (default EXECUTED_OPTIMISTIC). A
 * fork asks its upstream for a hash it never saw (a transaction of the forked chain).
 */
export async function tx(params: TxParams, ctx: RpcContext): Promise<TxResult | RelayedResult> {
  if (isUpstreamTransaction(ctx, params)) return forwardToUpstream(ctx, "tx", params);
  return transactionResponse(await lookupTransaction(ctx, params));
}

/** On a fork: a transaction asked for by a hash the fork never saw. */
export function isUpstreamTransaction(ctx: RpcContext, params: { tx_hash?: string; signed_tx_base64?: string }): boolean {
  return ctx.chain.fork !== undefined && params.tx_hash !== undefined && ctx.chain.transactionStatus(params.tx_hash) === undefined;
}
