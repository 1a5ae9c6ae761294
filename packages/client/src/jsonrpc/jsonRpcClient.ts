import { createRpcClient, type RpcClient } from "../generated/rpc/client.js";
import { httpTransport, type HttpTransportOptions } from "./httpTransport.js";

/**
 * A typed JSON-RPC client over HTTP: one method per spec'd method (`rpc.query`, `rpc.block`,
 * `rpc.sendTx`, ...), `query`'s result following `request_type`.
 */
export function jsonRpcClient(options: HttpTransportOptions): RpcClient {
  return createRpcClient(httpTransport(options));
}
