import type { RpcDiscoverParams, RpcDiscoverResult } from "../../../generated/rpc/types.js";
import type { RpcContext } from "./context.js";

/** `rpc.discover`: the assembled OpenRPC document this server implements (OpenRPC convention). */
export async function rpcDiscover(_params: RpcDiscoverParams, _ctx: RpcContext): Promise<RpcDiscoverResult> {
  // The document is 0.6 MB: read when first asked for, not at every start.
  const { default: openrpc } = await import("../../../generated/openrpc.json", { with: { type: "json" } });
  return openrpc as RpcDiscoverResult;
}
