import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/** Names which request a listener answered (`status`, `ftTop`...); undefined when it cannot tell. */
export type RequestNamer = (req: IncomingMessage, res: ServerResponse) => string | undefined;

/** Seconds: JSON-RPC reads take well under a millisecond, `send_tx` with FINAL seconds. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20];

/**
 * The Prometheus metrics of one `serve` or `gateway` process (prom-client, its own registry, so
 * several services in one process, as in tests, do not mix): requests by listener, method or
 * route and HTTP status, their latency, rate-cap refusals, process metrics (CPU, memory, event
 * loop lag, GC), and gauges the service adds (chain, index, upstreams, Redis) read at scrape time.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<"listener" | "method" | "status">;
  private readonly latency: Histogram<"listener" | "method">;
  private readonly refused: Counter<"listener">;

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: "shardkit_" });
    this.requests = new Counter({
      name: "shardkit_http_requests_total",
      help: "Requests answered, by listener (rpc, archival, rest), JSON-RPC method or REST operation, and HTTP status",
      labelNames: ["listener", "method", "status"],
      registers: [this.registry],
    });
    this.latency = new Histogram({
      name: "shardkit_http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its answer, by listener and JSON-RPC method or REST operation",
      labelNames: ["listener", "method"],
      buckets: LATENCY_BUCKETS,
      registers: [this.registry],
    });
    this.refused = new Counter({
      name: "shardkit_rate_limited_total",
      help: "Requests refused by a rate cap (HTTP 429), by listener",
      labelNames: ["listener"],
      registers: [this.registry],
    });
  }

  /** Counts and times every request `server` answers; `name` tells the method or route (else "other"). */
  observe(server: Server, listener: string, name?: RequestNamer): void {
    server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      const started = performance.now();
      let counted = false;
      // "finish" when the answer is handed over ("close" can wait for an unread request body, as
      // after a refusal); "close" alone when the client went away first.
      const count = () => {
        if (counted) return;
        counted = true;
        const method = name?.(req, res) ?? "other";
        const status = String(res.statusCode);
        this.requests.inc({ listener, method, status });
        this.latency.observe({ listener, method }, (performance.now() - started) / 1000);
        if (res.statusCode === 429) this.refused.inc({ listener });
      };
      res.once("finish", count);
      res.once("close", count);
    });
  }

  /**
   * A gauge set at each scrape from `read`: one value, or one per label set. `read` may be async
   * (an index status from PostgreSQL); a read that fails leaves the gauge empty for that scrape.
   */
  gauge<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    read: () => number | null | readonly { labels: Record<L, string>; value: number | null }[] | Promise<number | null>,
  ): void {
    new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        let value: Awaited<ReturnType<typeof read>>;
        try {
          value = await read();
        } catch {
          return;
        }
        if (value === null) return;
        if (typeof value === "number") return void this.set(value);
        for (const entry of value) if (entry.value !== null) this.set(entry.labels, entry.value);
      },
    });
  }

  /** A counter the service increments itself (blocks produced...). */
  counter(name: string, help: string): Counter<string> {
    return new Counter({ name, help, registers: [this.registry] });
  }

  /** A histogram the service observes itself (seconds between blocks...). */
  histogram(name: string, help: string, buckets: number[]): Histogram<string> {
    return new Histogram({ name, help, buckets, registers: [this.registry] });
  }

  /** The Prometheus text exposition of every metric. */
  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
