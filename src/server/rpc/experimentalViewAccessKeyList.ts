import type { ExperimentalViewAccessKeyListParams, ExperimentalViewAccessKeyListResult } from "../../../generated/rpc/types.js";
import type { RpcContext } from "./context.js";
import { viewAccessKeyList } from "./query/viewAccessKeyList.js";
import { typedViewBlock } from "./views/typedViewBlock.js";

/** `EXPERIMENTAL_view_access_key_list`: `query` `view_access_key_list` with nearcore's typed errors. */
export function experimentalViewAccessKeyList(
  params: ExperimentalViewAccessKeyListParams,
  ctx: RpcContext,
): ExperimentalViewAccessKeyListResult {
  return viewAccessKeyList(ctx, typedViewBlock(ctx, params), { request_type: "view_access_key_list", account_id: params.account_id });
}
