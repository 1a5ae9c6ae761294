import type { ExperimentalCallFunctionParams, ExperimentalCallFunctionResult } from "../../../generated/rpc/types.js";
import { UnknownAccountError as ChainUnknownAccountError } from "../../chain/node.js";
import { UnknownAccountError } from "../errors.js";
import type { RpcContext } from "./context.js";
import { base64Param } from "./query/base64Param.js";
import { blockPoint } from "./query/blockPoint.js";
import { ContractExecutionError } from "./views/viewErrors.js";
import { rpcFunctionCallError } from "./views/rpcFunctionCallError.js";
import { typedViewBlock } from "./views/typedViewBlock.js";

/**
 * `EXPERIMENTAL_call_function`: `query` `call_function`, except that a failed call is the typed
 * CONTRACT_EXECUTION_ERROR (`vm_error` as nearcore's RpcFunctionCallError) instead of the
 * legacy error-as-result. Same ViewBudget as `query`.
 */
export function experimentalCallFunction(params: ExperimentalCallFunctionParams, ctx: RpcContext): ExperimentalCallFunctionResult {
  const block = typedViewBlock(ctx, params);
  const args = base64Param("args_base64", params.args_base64);
  let outcome;
  try {
    outcome = ctx.views.run((limits) => ctx.chain.at(block).callFunction(params.account_id, params.method_name, args, limits));
  } catch (error) {
    if (error instanceof ChainUnknownAccountError) throw new UnknownAccountError(params.account_id, blockPoint(block));
    throw error;
  }
  if (!outcome.ok) throw new ContractExecutionError(rpcFunctionCallError(outcome.error), blockPoint(block));
  return { result: Array.from(outcome.result), logs: [...outcome.logs], ...blockPoint(block) };
}
