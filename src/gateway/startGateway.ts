import type { IncomingMessage, Server } from "node:http";
import { closeServer, listenOn } from "../server/http/serverLifecycle.js";
import { clientAddressOf } from "../server/http/clientAddress.js";
import { AccessControl } from "../server/http/AccessControl.js";
import type { AccessGate } from "../server/http/AccessGate.js";
import { createServiceRestListener } from "../server/http/createServiceRestListener.js";
import { KeyRing } from "../server/http/keyRing.js";
import { KeysFileWatcher } from "../server/http/KeysFileWatcher.js";
import { logRequests } from "../server/log/requestLog.js";
import { silentLogger, type Logger } from "../server/log/Logger.js";
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_JSON_DEPTH, SERVICE_VERSION } from "../server/startService.js";
import { DEFAULT_PROBE_INTERVAL_MS, DEFAULT_UPSTREAM_CONNECTIONS, DEFAULT_UPSTREAM_RETRY_MS, DEFAULT_UPSTREAM_TIMEOUT_MS } from "./gatewayDefaults.js";
import { createGatewayRpcListener } from "./createGatewayRpcListener.js";
import type { GatewayIndex } from "./GatewayIndex.js";
import { createGatewayStatusListener, gatewayRestHandlers } from "./gatewayRest.js";
import { probeUpstream } from "./probeUpstream.js";
import type { ServiceMetrics } from "../server/metrics/ServiceMetrics.js";
import { restRouteLabel, rpcGetLabel } from "../server/metrics/requestLabels.js";
import { UpstreamPool, type UpstreamHealth } from "./UpstreamPool.js";
import type { UpstreamCall } from "../indexer/upstream/UpstreamRpc.js";
import type { RedisHealth } from "./redis/RedisAccessGate.js";

export interface GatewayOptions {
  host: string;
  /** Regular JSON-RPC listener port (0 = any free port). */
  rpcPort: number;
  /** Archival JSON-RPC listener port (0 = any free port). */
  archivalPort: number;
  /** REST listener port (0 = any free port); without one, no REST listener. */
  apiPort?: number;
  /** Regular upstream nodes (nearcore JSON-RPC URLs), tried round-robin with failover. */
  upstreams: readonly string[];
  /** Archival upstream nodes; without any, the archival listener forwards to `upstreams`. */
  archivalUpstreams?: readonly string[];
  /** The auth hook of every listener; default: an AccessControl over `keysFile` and `publicRatePerMinute`, as `serve`. */
  access?: AccessGate & { close?(): void | Promise<void>; health?(): RedisHealth };
  /** Keys file (hashes, see `shardkit keys`), reloaded on change; used when `access` is not given. */
  keysFile?: string;
  /** Requests per minute per client address without a key; used when `access` is not given. */
  publicRatePerMinute?: number;
  /** `--trust-proxy` CIDRs: from these peers keyless caps count the X-Forwarded-For client (clientAddress.ts). */
  trustProxy?: readonly string[];
  /** Keys file reloads and problems (never a key). */
  onKeysReport?: (message: string) => void;
  /**
   * A shared account index: REST `/v1` is served from it; without one, `/v1` answers 503
   * (text/plain) and /status, /health still answer. Given as a function, it is opened with the
   * gateway's own upstream calls (UpstreamPool.call over the regular pool) to follow.
   */
  index?: GatewayIndex | ((upstream: UpstreamCall) => Promise<GatewayIndex>);
  /** Budget of one forwarded request, failover included, before TIMEOUT_ERROR (default 15000: above nearcore's own 10 s tx wait). */
  upstreamTimeoutMs?: number;
  /** How long a failed upstream is passed over before requests try it again (default 5000). */
  upstreamRetryMs?: number;
  /** Interval of the GET /status probes of every upstream (default 2000; 0 = no probes). */
  probeIntervalMs?: number;
  /** Pooled keep-alive connections per upstream node (default 256). */
  upstreamConnections?: number;
  maxBodyBytes?: number;
  maxJsonDepth?: number;
  /** Unexpected failures inside the gateway (a bug, never bad input or a failing upstream). */
  onInternalError?: (method: string, error: unknown) => void;
  /** Request lines at debug; default: nothing is logged. */
  logger?: Logger;
  /** Prometheus `/metrics` listener port (0 = any free port); without one, no metrics are kept. */
  metricsPort?: number;
}

/** What the gateway's /status and /health report. */
export interface GatewayHealth {
  readonly upstreams: readonly UpstreamHealth[];
  readonly archivalUpstreams: readonly UpstreamHealth[];
}

export interface Gateway {
  rpcUrl: string;
  archivalUrl: string;
  /** The REST listener, when `apiPort` was given. */
  apiUrl: string | undefined;
  /** The metrics listener (`…/metrics`), when `metricsPort` was given. */
  metricsUrl: string | undefined;
  readonly regular: UpstreamPool;
  /** The archival pool (the regular pool itself when no archival upstream was given). */
  readonly archival: UpstreamPool;
  health(): GatewayHealth;
  close(): Promise<void>;
}

export { DEFAULT_PROBE_INTERVAL_MS, DEFAULT_UPSTREAM_CONNECTIONS, DEFAULT_UPSTREAM_RETRY_MS, DEFAULT_UPSTREAM_TIMEOUT_MS };

/** Parses upstream URLs, refusing what cannot be an upstream. */
export function upstreamUrls(urls: readonly string[], what: string): URL[] {
  return urls.map((text) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new Error(`${what} ${JSON.stringify(text)} is not a URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`${what} ${JSON.stringify(text)} must be http:// or https://`);
    return url;
  });
}

/**
 * Starts a stateless gateway in front of nearcore RPC nodes: a regular and an archival
 * JSON-RPC listener that check requests exactly as `serve` does and stream valid ones to the
 * upstream nodes, and (with an index) the REST listener. State it shares with other instances
 * (keys and rate caps, the index) comes in through `access` and `index`.
 */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const retryAfterMs = options.upstreamRetryMs ?? DEFAULT_UPSTREAM_RETRY_MS;
  const maxSockets = options.upstreamConnections ?? DEFAULT_UPSTREAM_CONNECTIONS;
  const regular = new UpstreamPool(upstreamUrls(options.upstreams, "--upstream"), { retryAfterMs, maxSockets });
  const archivalUrls = options.archivalUpstreams ?? [];
  const archival = archivalUrls.length === 0 ? regular : new UpstreamPool(upstreamUrls(archivalUrls, "--archival-upstream"), { retryAfterMs, maxSockets });
  const pools = archival === regular ? [regular] : [regular, archival];
  const timeoutMs = options.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  // The index follows over the same pooled, probed connections the RPC listeners forward over.
  const index = typeof options.index === "function" ? await options.index(regular.call(timeoutMs)) : options.index;

  const keysWatcher =
    options.access !== undefined || options.keysFile === undefined ? undefined : KeysFileWatcher.open(options.keysFile, options.onKeysReport);
  const access: AccessGate =
    options.access ??
    new AccessControl(
      keysWatcher === undefined ? () => KeyRing.EMPTY : () => keysWatcher.current(),
      {
        ...(options.publicRatePerMinute !== undefined && { publicRatePerMinute: options.publicRatePerMinute }),
        clientAddress: clientAddressOf(options.trustProxy ?? []),
      },
    );
  const logger = options.logger ?? silentLogger;
  const servers: Server[] = [];

  const probeInterval = options.probeIntervalMs ?? DEFAULT_PROBE_INTERVAL_MS;
  const probeAll = () => Promise.all(pools.flatMap((pool) => pool.upstreams.map((upstream) => probeUpstream(pool, upstream, Math.min(timeoutMs, 5_000)))));
  let probes: NodeJS.Timeout | undefined;
  if (probeInterval > 0) {
    void probeAll();
    probes = setInterval(() => void probeAll(), probeInterval);
    probes.unref();
  }

  const health = (): GatewayHealth => ({ upstreams: regular.health(), archivalUpstreams: archival === regular ? [] : archival.health() });

  const bind = (server: Server, port: number): Promise<string> => {
    servers.push(server);
    return listenOn(server, port, options.host);
  };

  // prom-client is loaded only when metrics are asked for.
  const metrics = options.metricsPort === undefined ? undefined : new (await import("../server/metrics/ServiceMetrics.js")).ServiceMetrics();
  /** The JSON-RPC method of each valid request, for its metric labels. */
  const methods = new WeakMap<IncomingMessage, string>();

  const rpcListener = (pool: UpstreamPool, name: string) => {
    const server = createGatewayRpcListener({
      ...(metrics !== undefined && { onMethod: (req: IncomingMessage, method: string) => void methods.set(req, method) }),
      pool,
      access,
      timeoutMs,
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      maxJsonDepth: options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH,
      ...(options.onInternalError && { onInternalError: options.onInternalError }),
    });
    logRequests(server, name, logger);
    metrics?.observe(server, name, (req) => methods.get(req) ?? rpcGetLabel(req));
    return server;
  };

  const close = async () => {
    if (probes !== undefined) clearInterval(probes);
    keysWatcher?.close();
    await Promise.all(servers.map((server) => closeServer(server)));
    // The index first: its follower finishes the block in progress over the pools' connections.
    await index?.close();
    await Promise.all(pools.map((pool) => pool.close()));
    await options.access?.close?.();
  };

  try {
    const rpcUrl = await bind(rpcListener(regular, "rpc"), options.rpcPort);
    const archivalUrl = await bind(rpcListener(archival, "archival"), options.archivalPort);
    let apiUrl: string | undefined;
    if (options.apiPort !== undefined) {
      const history = index?.history;
      const gate = options.access;
      const onInternalError = options.onInternalError;
      const redisHealth = gate?.health?.bind(gate);
      const source = { regular, archival, index, redis: redisHealth };
      const restServer =
        index === undefined
          ? createGatewayStatusListener({
              source,
              access,
              version: SERVICE_VERSION,
              ...(onInternalError !== undefined && { onInternalError: (path: string, error: unknown) => onInternalError(`REST ${path}`, error) }),
            })
          : createServiceRestListener({
              handlers: gatewayRestHandlers(source),
              index: () => index.reader,
              ...(history !== undefined && { history: () => history }),
              // The highest head an upstream reported; before the first probe, 0 (the index is then taken as current).
              headHeight: () => regular.headHeight() ?? 0,
              version: SERVICE_VERSION,
              access,
              ...(options.onInternalError && { onInternalError: options.onInternalError }),
            });
      logRequests(restServer, "rest", logger);
      metrics?.observe(restServer, "rest", restRouteLabel);
      apiUrl = await bind(restServer, options.apiPort);
    }
    let metricsUrl: string | undefined;
    if (metrics !== undefined && options.metricsPort !== undefined) {
      gatewayMetrics(metrics, { regular, archival, index, access: options.access });
      const { createMetricsListener } = await import("../server/metrics/createMetricsListener.js");
      metricsUrl = `${await bind(createMetricsListener(metrics), options.metricsPort)}/metrics`;
    }
    return { rpcUrl, archivalUrl, apiUrl, metricsUrl, regular, archival, health, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The gateway's own gauges: every upstream node, the shared index, Redis; read at each scrape. */
function gatewayMetrics(
  metrics: ServiceMetrics,
  source: { regular: UpstreamPool; archival: UpstreamPool; index: GatewayIndex | undefined; access: GatewayOptions["access"] },
): void {
  const nodes = () => [
    ...source.regular.health().map((health) => ({ pool: "regular", health })),
    ...(source.archival === source.regular ? [] : source.archival.health().map((health) => ({ pool: "archival", health }))),
  ];
  const perNode = (value: (health: UpstreamHealth) => number | null) => () =>
    nodes().map(({ pool, health }) => ({ labels: { pool, upstream: health.url }, value: value(health) }));
  metrics.gauge("shardkit_upstream_up", "1 while the upstream node is taken to be up, 0 while requests pass it over", ["pool", "upstream"], perNode((h) => (h.up ? 1 : 0)));
  metrics.gauge(
    "shardkit_upstream_latency_seconds",
    "Duration of the last successful exchange with the upstream node",
    ["pool", "upstream"],
    perNode((h) => (h.latencyMs === null ? null : h.latencyMs / 1000)),
  );
  metrics.gauge("shardkit_upstream_head_height", "Head height the upstream node's last status probe reported", ["pool", "upstream"], perNode((h) => h.headHeight));
  const index = source.index;
  if (index !== undefined) {
    const status = async () => index.status();
    metrics.gauge("shardkit_index_available", "1 while the shared index database can be read, else 0 (REST /v1 answers 503)", [], async () => ((await status()).available ? 1 : 0));
    metrics.gauge("shardkit_index_lag_blocks", "Blocks between the upstream's final head and the last indexed block", [], async () => (await status()).lagBlocks);
    metrics.gauge("shardkit_index_lag_seconds", "Seconds between now and the last indexed block's timestamp", [], async () => (await status()).lagSeconds);
    metrics.gauge("shardkit_index_leader", "1 on the instance that follows the upstream into the index", [], async () => ((await status()).leader ? 1 : 0));
  }
  const redisHealth = source.access?.health?.bind(source.access);
  if (redisHealth !== undefined) {
    metrics.gauge("shardkit_redis_up", "1 while the shared keys and rate caps in Redis are in force, 0 while caps are per instance", [], () => (redisHealth().up ? 1 : 0));
  }
}
