import type { ExperimentalViewAccessKeyParams, ExperimentalViewAccessKeyResult } from "../../../generated/rpc/types.js";
import type { RpcContext } from "./context.js";
import { accessKeyView } from "./query/accessKeyView.js";
import { blockPoint } from "./query/blockPoint.js";
import { canonicalPublicKey } from "./query/viewAccessKey.js";
import { UnknownAccessKeyError } from "./views/viewErrors.js";
import { typedViewBlock } from "./views/typedViewBlock.js";

/**
 * `EXPERIMENTAL_view_access_key`: `query` `view_access_key`, except that a key the account
 * does not have is the typed UNKNOWN_ACCESS_KEY error instead of the legacy error-as-result.
 * Like nearcore's state viewer it reads the key alone, so a missing account answers the same.
 */
export function experimentalViewAccessKey(params: ExperimentalViewAccessKeyParams, ctx: RpcContext): ExperimentalViewAccessKeyResult {
  const block = typedViewBlock(ctx, params);
  const publicKey = canonicalPublicKey(params.public_key);
  const key = ctx.chain.at(block).accessKey(params.account_id, publicKey);
  if (key === undefined) throw new UnknownAccessKeyError(publicKey, blockPoint(block));
  return { ...accessKeyView(key), ...blockPoint(block) };
}
