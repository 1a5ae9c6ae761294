/** Messages between {@link BlockingRpc} and its worker (blockingRpcWorker.ts). */

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
