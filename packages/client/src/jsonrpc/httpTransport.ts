import type { RpcTransport } from "../generated/rpc/client.js";
import { rpcErrorClasses } from "../generated/rpc/errorClasses.js";
import type { RpcErrorCauseName } from "../generated/rpc/errors.js";
import { RpcHttpError, RpcResponseError, type RpcErrorPayload } from "./RpcResponseError.js";

export interface HttpTransportOptions {
  /** The JSON-RPC endpoint, e.g. `http://127.0.0.1:3030`. */
  url: string;
  /** Sent as `Authorization: Bearer <key>` (a server key, or a browser key held to its origins). */
  apiKey?: string;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
}

/**
 * JSON-RPC 2.0 over HTTP POST. Resolves with `result`; rejects with the cause's
 * RpcResponseError subclass for an `error` answer (whatever the HTTP status) and with
 * RpcHttpError for an answer that is not JSON-RPC.
 */
export function httpTransport(options: HttpTransportOptions): RpcTransport {
  const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
  if (options.apiKey !== undefined) headers.authorization = `Bearer ${options.apiKey}`;
  let nextId = 1;

  return async (method, params) => {
    // Looked up per call, so a test or a polyfill may replace the global fetch later.
    const send = options.fetch ?? globalThis.fetch;
    const response = await send(options.url, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (typeof body !== "object" || body === null || !("result" in body || "error" in body)) {
      throw new RpcHttpError(method, response.status, text);
    }
    if ("error" in body && body.error !== undefined && body.error !== null) {
      const error = body.error as RpcErrorPayload;
      const cause: unknown = error.cause;
      const causeName = typeof cause === "object" && cause !== null ? (cause as { name?: unknown }).name : undefined;
      // An error without nearcore's cause object is no answer this client can type.
      if (typeof causeName !== "string") throw new RpcHttpError(method, response.status, text);
      const ErrorClass = Object.hasOwn(rpcErrorClasses, causeName)
        ? rpcErrorClasses[causeName as RpcErrorCauseName]
        : RpcResponseError;
      throw new (ErrorClass as typeof RpcResponseError)(method, response.status, error);
    }
    return (body as { result: unknown }).result;
  };
}
