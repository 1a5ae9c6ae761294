import type { ForkOptions } from "./ForkOptions.js";
import type { ForkPoint } from "./ForkPoint.js";
import { UpstreamRpcError, UpstreamUnavailableError } from "./UpstreamError.js";

/** Asks the upstream for its chain id and the fork block (its final block unless one is named). */
export async function resolveForkPoint(options: ForkOptions): Promise<ForkPoint> {
  const { url, block } = options;
  const call = async (method: string, params: unknown, label: string): Promise<Record<string, unknown>> => {
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...(options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` }) },
        body: JSON.stringify({ jsonrpc: "2.0", id: "fork", method, params }),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new UpstreamUnavailableError(label, url, cause?.code ?? cause?.message ?? (e as Error).message, { cause: e });
    }
    const text = await response.text();
    let body: { result?: Record<string, unknown>; error?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new UpstreamUnavailableError(label, url, `HTTP ${response.status}, not JSON: ${text.slice(0, 200)}`);
    }
    if (body.error !== undefined) throw new UpstreamRpcError(label, url, body.error);
    if (body.result === undefined) throw new UpstreamUnavailableError(label, url, `HTTP ${response.status} without a result`);
    return body.result;
  };
  const status = await call("status", [], "status");
  const blockParams = block === undefined ? { finality: "final" } : { block_id: block };
  const found = await call("block", blockParams, `block ${block === undefined ? "final" : String(block)}`);
  const header = found["header"] as { hash: string; height: number; prev_hash: string; timestamp_nanosec: string };
  return {
    url,
    ...(options.archivalUrl === undefined ? {} : { archivalUrl: options.archivalUrl }),
    blockHash: header.hash,
    height: header.height,
    prevHash: header.prev_hash,
    timestampNs: BigInt(header.timestamp_nanosec),
    chainId: String(status["chain_id"]),
  };
}
