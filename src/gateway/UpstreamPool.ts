import { httpTransport } from "@shardkit/client/jsonrpc";
import { Pool } from "undici";
import { isTransientUpstreamError, type UpstreamCall } from "../indexer/upstream/UpstreamRpc.js";

/** What /status reports about one upstream node. */
export interface UpstreamHealth {
  /** The upstream's scheme and host only (credentials, path and query may carry a provider key). */
  readonly url: string;
  readonly up: boolean;
  /** Why it was last marked down (null when it never failed). */
  readonly lastError: string | null;
  /** Duration of the last successful exchange with it, in ms (null before one). */
  readonly latencyMs: number | null;
  /** Head height its last `status` probe reported (null before one). */
  readonly headHeight: number | null;
}

/** Why a call got no usable answer, without the node's address (/status shows it to anyone). */
function shortReason(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  const code = typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string" ? cause.code : undefined;
  if (code !== undefined) return code;
  if (cause instanceof Error) return cause.name;
  return error instanceof Error ? error.name : "no answer";
}

/** One upstream node: where it is, its pooled connections, and what the gateway last saw of it. */
export class Upstream {
  readonly url: URL;
  /** Pooled keep-alive connections to the node (undici: less CPU per request than node:http's client). */
  readonly connections: Pool;
  readonly label: string;
  /** Where JSON-RPC goes: the URL's own path and query (a provider's key may live there). */
  readonly rpcPath: string;
  /** `Authorization: Basic` from the URL's userinfo, when it has one (undici takes the origin only). */
  readonly authorization: string | undefined;
  up = true;
  lastError: string | null = null;
  latencyMs: number | null = null;
  headHeight: number | null = null;
  /** While down: when a request may try it again (probes may bring it back sooner). */
  retryAtMs = 0;

  constructor(url: URL, maxSockets: number) {
    this.url = url;
    // One TCP (and TLS) handshake per pooled connection, not per request; idle connections
    // stay open as long as the node's keep-alive hint allows (30 s when it gives none).
    this.connections = new Pool(url.origin, { connections: maxSockets, pipelining: 1, keepAliveTimeout: 30_000 });
    // Scheme and host alone: providers put keys in the userinfo, the path or the query.
    this.label = `${url.protocol}//${url.host}`;
    this.rpcPath = `${url.pathname}${url.search}`;
    this.authorization =
      url.username === "" && url.password === ""
        ? undefined
        : `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64")}`;
  }

  health(): UpstreamHealth {
    return { url: this.label, up: this.up, lastError: this.lastError, latencyMs: this.latencyMs, headHeight: this.headHeight };
  }
}

export interface UpstreamPoolOptions {
  /** How long a failed upstream is passed over before a request may try it again. */
  readonly retryAfterMs: number;
  readonly maxSockets: number;
  readonly now?: () => number;
}

/**
 * The upstream nodes of one listener (regular or archival). Requests go round-robin over the
 * nodes that are up; a node that fails is marked down and passed over until its retry time (or
 * until a probe sees it answer again). When every node is down, the one due soonest is tried
 * anyway: a client gets an attempt rather than a refusal from stale state.
 */
export class UpstreamPool {
  readonly upstreams: readonly Upstream[];
  private next = 0;
  private readonly now: () => number;

  constructor(
    urls: readonly URL[],
    private readonly options: UpstreamPoolOptions,
  ) {
    if (urls.length === 0) throw new Error("an upstream pool needs at least one URL");
    this.upstreams = urls.map((url) => new Upstream(url, options.maxSockets));
    this.now = options.now ?? Date.now;
  }

  /** The node for the next attempt, leaving out those already tried for this request; undefined when all were tried. */
  pick(tried: readonly Upstream[] = []): Upstream | undefined {
    const count = this.upstreams.length;
    const now = this.now();
    let fallback: Upstream | undefined;
    for (let i = 0; i < count; i++) {
      const upstream = this.upstreams[(this.next + i) % count];
      if (upstream === undefined || tried.includes(upstream)) continue;
      if (upstream.up || upstream.retryAtMs <= now) {
        this.next = (this.next + i + 1) % count;
        return upstream;
      }
      if (fallback === undefined || upstream.retryAtMs < fallback.retryAtMs) fallback = upstream;
    }
    return fallback;
  }

  /**
   * JSON-RPC calls over the pool's own connections (how the index follower reads the upstream):
   * each call goes to the node `pick` chooses, as a forwarded request does; a node that fails
   * transiently (no answer, a proxy's 5xx, a busy node's cause) is marked down and the next one
   * is tried, so following and forwarding see the same health.
   */
  call(timeoutMs: number): UpstreamCall {
    const transports = new Map(
      this.upstreams.map((upstream) => {
        const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
        if (upstream.authorization !== undefined) headers.authorization = upstream.authorization;
        const transport = httpTransport({
          url: `${upstream.url.origin}${upstream.rpcPath}`,
          fetch: async (_url, init) => {
            try {
              const answer = await upstream.connections.request({
                method: "POST",
                path: upstream.rpcPath,
                headers,
                body: typeof init?.body === "string" ? init.body : "",
                signal: AbortSignal.timeout(timeoutMs),
              });
              return new Response(await answer.body.text(), { status: answer.statusCode });
            } catch (error) {
              // As fetch reports a request that got no answer (isTransientUpstreamError).
              throw new TypeError("fetch failed", { cause: error });
            }
          },
        });
        return [upstream, transport] as const;
      }),
    );
    return async (method, params) => {
      const tried: Upstream[] = [];
      for (;;) {
        const upstream = this.pick(tried);
        const transport = upstream === undefined ? undefined : transports.get(upstream);
        if (upstream === undefined || transport === undefined) throw new Error(`no upstream node left to call ${method}`);
        tried.push(upstream);
        const started = performance.now();
        try {
          const result = await transport(method, params);
          this.markUp(upstream, performance.now() - started);
          return result;
        } catch (error) {
          if (!isTransientUpstreamError(error)) throw error;
          this.markDown(upstream, `index follower's ${method} failed: ${shortReason(error)}`);
          if (tried.length >= this.upstreams.length) throw error;
        }
      }
    };
  }

  markDown(upstream: Upstream, reason: string): void {
    upstream.up = false;
    upstream.lastError = reason;
    upstream.retryAtMs = this.now() + this.options.retryAfterMs;
  }

  markUp(upstream: Upstream, latencyMs: number): void {
    upstream.up = true;
    upstream.latencyMs = latencyMs;
  }

  /** Highest head height any node reported (null before the first probe answers). */
  headHeight(): number | null {
    let best: number | null = null;
    for (const upstream of this.upstreams) if (upstream.headHeight !== null && (best === null || upstream.headHeight > best)) best = upstream.headHeight;
    return best;
  }

  health(): UpstreamHealth[] {
    return this.upstreams.map((upstream) => upstream.health());
  }

  async close(): Promise<void> {
    await Promise.all(this.upstreams.map((upstream) => upstream.connections.destroy()));
  }
}
