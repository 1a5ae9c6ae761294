import type { ForkPoint } from "./ForkPoint.js";

/** How to start (or resume) a fork: `shardkit serve --fork URL [--fork-block HEIGHT|HASH]`. */
export interface ForkOptions {
  /** The upstream's JSON-RPC URL. */
  readonly url: string;
  /** The block to fork at: a height or a base58 hash (default: the upstream's final block). */
  readonly block?: number | string | undefined;
  /** Where blocks and chunks at or below the fork height are read (default: `url`). */
  readonly archivalUrl?: string | undefined;
  /** Sent to the upstream as `Authorization: Bearer …`. */
  readonly apiKey?: string | undefined;
  /** Most upstream requests per second (default UPSTREAM_DEFAULTS.requestsPerSecond). */
  readonly requestsPerSecond?: number | undefined;
  /** The fork block, already asked for (resolveForkPoint): the chain opens without asking again. */
  readonly at?: ForkPoint | undefined;
}
