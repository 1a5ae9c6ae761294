import type { RpcTransport } from "../../generated/rpc/client.js";
import { RpcHttpError, RpcResponseError, type RpcErrorPayload } from "./RpcResponseError.js";

export interface HttpTransportOptions {
  /** The JSON-RPC endpoint, e.g. `http://127.0.0.1:3030`. */
  url: string;
  /** Sent as `Authorization: Bearer <key>`. */
  apiKey?: string;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
}

/**
 * A JSON-RPC 2.0 transport over HTTP POST for the generated client. Resolves with `result`;
 * rejects with RpcResponseError for an `error` answer (whatever the HTTP status, as nearcore
 * uses 200, 400, 408 and 500) and with RpcHttpError for an answer that is not JSON-RPC.
 *
 * @example
 * import { createRpcClient, httpTransport } from "shardkit/client";
 * const rpc = createRpcClient(httpTransport({ url: "http://127.0.0.1:3030" }));
 * const account = await rpc.query({ request_type: "view_account", finality: "final", account_id: "alice.test.near" });
 */
export function httpTransport(options: HttpTransportOptions): RpcTransport {
  const send = options.fetch ?? fetch;
  const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
  if (options.apiKey !== undefined) headers.authorization = `Bearer ${options.apiKey}`;
  let nextId = 1;

  return async (method, params) => {
    const response = await send(options.url, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
    });
    const text = await response.text();
    let body: { result?: unknown; error?: RpcErrorPayload } | undefined;
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      body = undefined;
    }
    if (body === undefined || typeof body !== "object" || body === null || !("result" in body || "error" in body)) {
      throw new RpcHttpError(method, response.status, text);
    }
    if (body.error !== undefined) throw new RpcResponseError(method, response.status, body.error);
    return body.result;
  };
}
