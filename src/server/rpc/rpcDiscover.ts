import openrpc from "../../../generated/openrpc.json" with { type: "json" };
import type { RpcDiscoverParams, RpcDiscoverResult } from "../../../generated/rpc/types.js";
import type { RpcContext } from "./context.js";

/** `rpc.discover`: the assembled OpenRPC document this server implements (OpenRPC convention). */
export function rpcDiscover(_params: RpcDiscoverParams, _ctx: RpcContext): RpcDiscoverResult {
  return openrpc as RpcDiscoverResult;
}
