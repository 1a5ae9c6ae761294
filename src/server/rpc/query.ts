import type { RelayedResult } from "../../../generated/rpc/methods.js";
import type { QueryParams, QueryResult } from "../../../generated/rpc/types.js";
import { resolveStateBlock } from "./blockReference.js";
import type { RpcContext } from "./context.js";
import { forwardToUpstream, upstreamBlockId } from "./forkForward.js";
import { callFunction } from "./query/callFunction.js";
import { viewAccessKey } from "./query/viewAccessKey.js";
import { viewAccessKeyList } from "./query/viewAccessKeyList.js";
import { viewAccount } from "./query/viewAccount.js";
import { viewCode } from "./query/viewCode.js";
import { viewGasKeyNonces } from "./query/viewGasKeyNonces.js";
import { viewGlobalContractCode } from "./query/viewGlobalContractCode.js";
import { viewState } from "./query/viewState.js";

/**
 * `query`: resolve the block once, then answer the request variant chosen by `request_type`.
 * A fork answers at its fork block and after; state before it is the upstream's to tell.
 */
export function query(params: QueryParams, ctx: RpcContext): QueryResult | Promise<RelayedResult> {
  const upstream = upstreamBlockId(ctx, params);
  const fork = ctx.chain.fork;
  if (upstream !== undefined && fork !== undefined && upstream !== fork.height && upstream !== fork.blockHash) {
    return forwardToUpstream(ctx, "query", params);
  }
  const block = resolveStateBlock(ctx, params);
  switch (params.request_type) {
    case "view_account":
      return viewAccount(ctx, block, params);
    case "view_access_key":
      return viewAccessKey(ctx, block, params);
    case "view_access_key_list":
      return viewAccessKeyList(ctx, block, params);
    case "view_state":
      return viewState(ctx, block, params);
    case "view_code":
      return viewCode(ctx, block, params);
    case "call_function":
      return callFunction(ctx, block, params);
    case "view_global_contract_code":
    case "view_global_contract_code_by_account_id":
      return viewGlobalContractCode(ctx, block, params);
    case "view_gas_key_nonces":
      return viewGasKeyNonces(ctx, block, params);
  }
}
