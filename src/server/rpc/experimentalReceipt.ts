import type { ExperimentalReceiptParams, ExperimentalReceiptResult } from "../../../generated/rpc/types.js";
import { UnknownReceiptError } from "../errors.js";
import type { RpcContext } from "./context.js";

/** `EXPERIMENTAL_receipt`: a receipt the chain created, executed or not. */
export function experimentalReceipt(params: ExperimentalReceiptParams, ctx: RpcContext): ExperimentalReceiptResult {
  const receipt = ctx.chain.receipt(params.receipt_id);
  if (receipt === undefined) throw new UnknownReceiptError(params.receipt_id);
  return receipt;
}
