import type { CallFunctionRequest, CallFunctionResult, QueryErrorResult } from "../../../../generated/rpc/types.js";
import { UnknownAccountError as ChainUnknownAccountError } from "../../../chain/node.js";
import { UnknownAccountError } from "../../errors.js";
import type { Block, RpcContext } from "../context.js";
import { base64Param } from "./base64Param.js";
import { blockPoint } from "./blockPoint.js";

/**
 * `query` / `call_function`: runs the method as a view call at `block`. A missing account is
 * UNKNOWN_ACCOUNT; every failure of the call itself is answered the legacy nearcore way, HTTP
 * 200 with `result.error` holding the VM's message and empty `logs` (nearcore drops the logs of
 * a failed call), which near-api-js parses. The returned bytes go out as a JSON array. The
 * call runs within the listener's ViewBudget: over `--view-timeout-ms` it fails like a view
 * out of gas; when views have used their share of the thread, TIMEOUT_ERROR (HTTP 408).
 */
export function callFunction(ctx: RpcContext, block: Block, params: CallFunctionRequest): CallFunctionResult | QueryErrorResult {
  const args = base64Param("args_base64", params.args_base64);
  let outcome;
  try {
    outcome = ctx.views.run((limits) => ctx.chain.at(block).callFunction(params.account_id, params.method_name, args, limits));
  } catch (error) {
    if (error instanceof ChainUnknownAccountError) throw new UnknownAccountError(params.account_id, blockPoint(block));
    throw error;
  }
  if (!outcome.ok) return { error: outcome.message, logs: [], ...blockPoint(block) };
  return { result: Array.from(outcome.result), logs: [...outcome.logs], ...blockPoint(block) };
}
