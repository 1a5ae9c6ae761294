import { isJsonObject } from "@shardkit/primitives/isJsonObject";
import { fetchFailureReason } from "./fetchFailureReason.js";
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
      throw new UpstreamUnavailableError(label, url, fetchFailureReason(e), { cause: e });
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new UpstreamUnavailableError(label, url, `HTTP ${response.status}, not JSON: ${text.slice(0, 200)}`);
    }
    if (isJsonObject(body) && body["error"] !== undefined) throw new UpstreamRpcError(label, url, body["error"]);
    const result = isJsonObject(body) ? body["result"] : undefined;
    if (!isJsonObject(result)) throw new UpstreamUnavailableError(label, url, `HTTP ${response.status} without a JSON-RPC result object: ${text.slice(0, 200)}`);
    return result;
  };
  const status = await call("status", [], "status");
  const blockParams = block === undefined ? { finality: "final" } : { block_id: block };
  const found = await call("block", blockParams, `block ${block === undefined ? "final" : String(block)}`);
  const header = found["header"];
  const chainId = status["chain_id"];
  if (!isJsonObject(header) || typeof header["hash"] !== "string" || typeof header["height"] !== "number" || typeof header["prev_hash"] !== "string" || typeof header["timestamp_nanosec"] !== "string") {
    throw new UpstreamUnavailableError("block", url, `its block header is not nearcore's: ${JSON.stringify(header)?.slice(0, 200)}`);
  }
  if (typeof chainId !== "string") throw new UpstreamUnavailableError("status", url, "its status has no chain_id");
  return {
    url,
    ...(options.archivalUrl === undefined ? {} : { archivalUrl: options.archivalUrl }),
    blockHash: header["hash"],
    height: header["height"],
    prevHash: header["prev_hash"],
    timestampNs: BigInt(header["timestamp_nanosec"]),
    chainId,
    ...(typeof header["latest_protocol_version"] === "number" && { protocolVersion: header["latest_protocol_version"] }),
  };
}
