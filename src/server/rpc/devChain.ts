import type { DevChainControl } from "../../chain/sandbox/DevChainControl.js";
import { MethodNotFoundError } from "../errors.js";
import type { RpcContext } from "./context.js";

/**
 * The dev-chain controls behind the sandbox_* and shardkit_* methods. A listener without
 * them (or, for the history-rewriting shardkit_* methods, the archival listener) answers
 * METHOD_NOT_FOUND, as a nearcore node without the sandbox feature does.
 */
export function devChainOf(ctx: RpcContext, method: string, opts: { regularOnly: boolean }): DevChainControl {
  if (ctx.devChain === undefined || (opts.regularOnly && ctx.archival)) throw new MethodNotFoundError(method);
  return ctx.devChain;
}
