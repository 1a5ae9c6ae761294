import type { ExperimentalViewAccountParams, ExperimentalViewAccountResult } from "../../../generated/rpc/types.js";
import type { RpcContext } from "./context.js";
import { viewAccount } from "./query/viewAccount.js";
import { typedViewBlock } from "./views/typedViewBlock.js";

/** `EXPERIMENTAL_view_account`: `query` `view_account` with nearcore's typed errors. */
export function experimentalViewAccount(params: ExperimentalViewAccountParams, ctx: RpcContext): ExperimentalViewAccountResult {
  return viewAccount(ctx, typedViewBlock(ctx, params), { request_type: "view_account", account_id: params.account_id });
}
