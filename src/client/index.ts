/**
 * `shardkit/client`: the generated client stubs, the HTTP transport and its errors, as
 * @shardkit/client exports them (one client; this entry keeps the names it always had). The
 * errors are @shardkit/client's: one RpcResponseError subclass per cause, `info` and `data` typed.
 */
export { createRpcClient, httpTransport, RpcHttpError, RpcResponseError } from "@shardkit/client/jsonrpc";
export type { HttpTransportOptions, RpcClient, RpcErrorPayload, RpcTransport } from "@shardkit/client/jsonrpc";
export type * from "@shardkit/client/jsonrpc";
