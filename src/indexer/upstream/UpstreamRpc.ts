import { httpTransport, RpcHttpError, RpcResponseError } from "@shardkit/client/jsonrpc";

/** One JSON-RPC call to the upstream nearcore node, resolving with `result`. */
export type UpstreamCall = (method: string, params: unknown) => Promise<unknown>;

/** nearcore's error causes that say the node is busy or broken, not that the request is wrong. */
const TRANSIENT_CAUSES = new Set(["TIMEOUT_ERROR", "INTERNAL_ERROR", "NO_SYNCED_BLOCKS", "NOT_SYNCED_YET"]);

/**
 * True when a failed call may succeed if tried again: no answer (connection refused, reset,
 * timeout), an answer that is not JSON-RPC (a proxy's 502), or a transient nearcore cause.
 */
export function isTransientUpstreamError(error: unknown): boolean {
  if (error instanceof RpcResponseError) return TRANSIENT_CAUSES.has(error.causeName);
  return error instanceof RpcHttpError || error instanceof TypeError || (error instanceof Error && error.name === "TimeoutError");
}

/**
 * Calls upstream nodes over HTTP (keep-alive, a per-call timeout). With several nodes, a call
 * that fails transiently is tried on the next one, and the next call starts where the last
 * one succeeded.
 */
export function upstreamRpc(urls: string | readonly string[], timeoutMs = 10_000): UpstreamCall {
  const transports = (typeof urls === "string" ? [urls] : urls).map((url) =>
    httpTransport({ url, fetch: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) }) }),
  );
  if (transports.length === 0) throw new Error("no upstream URL to follow");
  let current = 0;
  return async (method, params) => {
    for (let tried = 1; ; tried++) {
      try {
        return await transports[current]!(method, params);
      } catch (error) {
        if (tried >= transports.length || !isTransientUpstreamError(error)) throw error;
        current = (current + 1) % transports.length;
      }
    }
  };
}
