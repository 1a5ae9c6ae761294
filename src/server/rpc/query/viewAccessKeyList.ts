import type { ViewAccessKeyListRequest, ViewAccessKeyListResult } from "../../../../generated/rpc/types.js";
import type { Block, RpcContext } from "../context.js";
import { accessKeyView } from "./accessKeyView.js";
import { blockPoint } from "./blockPoint.js";

/**
 * `query` / `view_access_key_list`: every key of the account, in key byte order. Like
 * nearcore's state viewer it lists keys without checking the account: a missing one has none.
 */
export function viewAccessKeyList(
  ctx: RpcContext,
  block: Block,
  params: ViewAccessKeyListRequest,
): ViewAccessKeyListResult {
  const keys = ctx.chain.at(block).accessKeys(params.account_id).map(({ publicKey, accessKey }) => ({
    public_key: publicKey,
    access_key: accessKeyView(accessKey),
  }));
  return { keys, ...blockPoint(block) };
}
