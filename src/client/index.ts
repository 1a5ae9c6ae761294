/**
 * The shardkit client: typed stubs generated from the spec, an HTTP transport, and typed
 * errors. It imports nothing from the server or the chain, so it runs in browsers too.
 */
export { createRpcClient, type RpcClient, type RpcTransport } from "../../generated/rpc/client.js";
export type * from "../../generated/rpc/types.js";
export { httpTransport, type HttpTransportOptions } from "./httpTransport.js";
export { RpcHttpError, RpcResponseError, type RpcErrorPayload } from "./RpcResponseError.js";
