import type { RelayedResult } from "../../../generated/rpc/methods.js";
import type { ExperimentalReceiptParams, ExperimentalReceiptResult } from "../../../generated/rpc/types.js";
import { UnknownReceiptError } from "../errors.js";
import type { RpcContext } from "./context.js";
import { forwardToUpstream } from "./forkForward.js";

/** `EXPERIMENTAL_receipt`: a receipt the chain created, executed or not (on a fork, an unknown id is asked from the upstream). */
export function experimentalReceipt(params: ExperimentalReceiptParams, ctx: RpcContext): ExperimentalReceiptResult | Promise<RelayedResult> {
  const receipt = ctx.chain.receipt(params.receipt_id);
  if (receipt === undefined && ctx.chain.fork !== undefined) return forwardToUpstream(ctx, "EXPERIMENTAL_receipt", params);
  if (receipt === undefined) throw new UnknownReceiptError(params.receipt_id);
  return receipt;
}
