/**
 * Worker thread of {@link BlockingRpc}: makes the JSON-RPC calls with fetch, with bounded
 * retries and a requests-per-second cap, and posts each reply back before waking the caller
 * (which waits on the shared signal, so it can read the reply synchronously).
 */
import { MessagePort, workerData } from "node:worker_threads";
import { isJsonObject } from "@shardkit/primitives/isJsonObject";
import { fetchFailureReason } from "./fetchFailureReason.js";
import { isUpstreamSettings, type UpstreamReply, type UpstreamRequest } from "./upstreamMessages.js";

if (!isJsonObject(workerData) || !(workerData["port"] instanceof MessagePort) || !(workerData["signal"] instanceof Int32Array) || !isUpstreamSettings(workerData["settings"])) {
  throw new TypeError("blockingRpcWorker needs { port, signal, settings } (BlockingRpc starts it)");
}
const { port, signal, settings } = { port: workerData["port"], signal: workerData["signal"], settings: workerData["settings"] };
const minIntervalMs = 1000 / settings.requestsPerSecond;
let nextStartAt = 0;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits for the rate cap's next slot. */
async function slot(): Promise<void> {
  const now = Date.now();
  const at = Math.max(now, nextStartAt);
  nextStartAt = at + minIntervalMs;
  if (at > now) await sleep(at - now);
}

/** One attempt: the parsed JSON-RPC answer, or a reason to retry. */
async function attempt(request: UpstreamRequest): Promise<UpstreamReply | { retry: string }> {
  await slot();
  let response: Response;
  try {
    response = await fetch(settings.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(settings.apiKey === undefined ? {} : { authorization: `Bearer ${settings.apiKey}` }),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: request.id, method: request.method, params: request.params }),
      signal: AbortSignal.timeout(settings.attemptTimeoutMs),
    });
  } catch (e) {
    return { retry: fetchFailureReason(e) };
  }
  const text = await response.text().catch(() => "");
  // 408: nearcore's TIMEOUT_ERROR; 429 and 5xx: a busy or failing node.
  if (response.status === 408 || response.status === 429 || response.status >= 500) return { retry: `HTTP ${response.status}` };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { id: request.id, kind: "failed", message: `HTTP ${response.status}, not JSON: ${text.slice(0, 200)}` };
  }
  if (!isJsonObject(body)) {
    return { id: request.id, kind: "failed", message: `HTTP ${response.status}, not a JSON-RPC answer: ${text.slice(0, 200)}` };
  }
  if (body["error"] !== undefined) return { id: request.id, kind: "rpc-error", error: body["error"] };
  if (!response.ok || !("result" in body)) return { id: request.id, kind: "failed", message: `HTTP ${response.status}: ${text.slice(0, 200)}` };
  return { id: request.id, kind: "result", result: body["result"] };
}

async function call(request: UpstreamRequest): Promise<UpstreamReply> {
  let reason = "";
  for (let i = 0; i < settings.attempts; i++) {
    if (i > 0) await sleep(settings.backoffMs * 2 ** (i - 1));
    const outcome = await attempt(request);
    if (!("retry" in outcome)) return outcome;
    reason = outcome.retry;
  }
  return { id: request.id, kind: "failed", message: `${reason} after ${settings.attempts} attempts` };
}

port.on("message", (request: UpstreamRequest) => {
  // Every request gets a reply, whatever goes wrong here: the caller's thread is waiting.
  void call(request)
    .catch((e: unknown): UpstreamReply => ({ id: request.id, kind: "failed", message: `upstream worker: ${e instanceof Error ? e.message : String(e)}` }))
    .then((reply) => {
      port.postMessage(reply);
      Atomics.store(signal, 0, 1);
      Atomics.notify(signal, 0);
    });
});
