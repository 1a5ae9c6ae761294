import type { ExperimentalViewStateParams, ExperimentalViewStateResult } from "../../../generated/rpc/types.js";
import type { RpcContext } from "./context.js";
import { viewState } from "./query/viewState.js";
import { typedViewBlock } from "./views/typedViewBlock.js";

/**
 * `EXPERIMENTAL_view_state`: an unpaginated `query` `view_state` (nearcore's request type has
 * no paging fields) with nearcore's typed errors.
 */
export function experimentalViewState(params: ExperimentalViewStateParams, ctx: RpcContext): ExperimentalViewStateResult {
  return viewState(ctx, typedViewBlock(ctx, params), {
    request_type: "view_state",
    account_id: params.account_id,
    prefix_base64: params.prefix_base64,
    ...(params.include_proof !== undefined && { include_proof: params.include_proof }),
  });
}
