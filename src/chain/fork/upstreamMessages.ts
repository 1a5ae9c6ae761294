/** Messages between {@link BlockingRpc} and its worker (blockingRpcWorker.ts), checked on arrival. */
import { isJsonObject } from "@shardkit/primitives/isJsonObject";

export interface UpstreamSettings {
  readonly url: string;
  /** Sent as `Authorization: Bearer …` when given. */
  readonly apiKey?: string | undefined;
  /** Most requests started per second (a public RPC is not hammered). */
  readonly requestsPerSecond: number;
  /** Attempts per call when the upstream cannot be reached or answers 5xx/429. */
  readonly attempts: number;
  /** Wait before the 2nd attempt; doubled for each further one. */
  readonly backoffMs: number;
  /** Time allowed to one attempt. */
  readonly attemptTimeoutMs: number;
}

export interface UpstreamRequest {
  readonly id: number;
  readonly method: string;
  readonly params: unknown;
}

export type UpstreamReply =
  | { readonly id: number; readonly kind: "result"; readonly result: unknown }
  /** The upstream answered with a JSON-RPC error (not retried: it is the answer). */
  | { readonly id: number; readonly kind: "rpc-error"; readonly error: unknown }
  /** No usable answer after every attempt. */
  | { readonly id: number; readonly kind: "failed"; readonly message: string };

export function isUpstreamSettings(value: unknown): value is UpstreamSettings {
  if (!isJsonObject(value) || typeof value["url"] !== "string") return false;
  if (value["apiKey"] !== undefined && typeof value["apiKey"] !== "string") return false;
  return ["requestsPerSecond", "attempts", "backoffMs", "attemptTimeoutMs"].every((name) => typeof value[name] === "number");
}

export function isUpstreamReply(value: unknown): value is UpstreamReply {
  if (!isJsonObject(value) || typeof value["id"] !== "number") return false;
  switch (value["kind"]) {
    case "result":
      return "result" in value;
    case "rpc-error":
      return "error" in value;
    case "failed":
      return typeof value["message"] === "string";
    default:
      return false;
  }
}
