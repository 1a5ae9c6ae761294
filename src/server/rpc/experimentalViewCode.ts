import type { ExperimentalViewCodeParams, ExperimentalViewCodeResult } from "../../../generated/rpc/types.js";
import type { RpcContext } from "./context.js";
import { viewCode } from "./query/viewCode.js";
import { typedViewBlock } from "./views/typedViewBlock.js";

/** `EXPERIMENTAL_view_code`: `query` `view_code` with nearcore's typed errors. */
export function experimentalViewCode(params: ExperimentalViewCodeParams, ctx: RpcContext): ExperimentalViewCodeResult {
  return viewCode(ctx, typedViewBlock(ctx, params), { request_type: "view_code", account_id: params.account_id });
}
