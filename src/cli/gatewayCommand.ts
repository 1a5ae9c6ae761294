import { createLogger, isLogLevel, LOG_LEVELS } from "../server/log/Logger.js";
import { DEFAULT_PROBE_INTERVAL_MS, DEFAULT_UPSTREAM_RETRY_MS, DEFAULT_UPSTREAM_TIMEOUT_MS } from "../gateway/gatewayDefaults.js";
import type { GatewayOptions } from "../gateway/startGateway.js";
import { clientAddressOf } from "../server/http/clientAddress.js";
import { shutdownOnSignals } from "./shutdownOnSignals.js";
import { UsageError, parseFlags, type FlagSpecs, type FlagValues } from "./flags.js";
import { trustProxyFlagSpec, trustProxyFrom, trustProxyUsage } from "./trustProxyFlag.js";
import { listenError } from "./listenError.js";
import { usageLine } from "./usageLine.js";
import type { UpstreamCall } from "../indexer/upstream/UpstreamRpc.js";

interface GatewayFlag {
  value: string;
  default: string | undefined;
  help: string;
}

/** Valued flags of `shardkit gateway`: the listener flags are `serve`'s. */
export const gatewayFlags = {
  upstream: { value: "URL", default: undefined, help: "a regular nearcore JSON-RPC node; repeat for failover (required)" },
  "archival-upstream": { value: "URL", default: undefined, help: "an archival node for the archival listener; repeat for failover (default: the --upstream nodes)" },
  host: { value: "ADDRESS", default: "127.0.0.1", help: "interface to bind every listener to" },
  "rpc-port": { value: "PORT", default: "3030", help: "regular JSON-RPC listener; 0 = any free port" },
  "archival-port": { value: "PORT", default: "3031", help: "archival JSON-RPC listener; 0 = any free port" },
  "api-port": { value: "PORT", default: "3040", help: "REST listener (/status, /health; /v1 with an index); 0 = any free port" },
  "metrics-port": { value: "PORT", default: undefined, help: "Prometheus /metrics listener, no API key: bind where only the scraper reaches (default: none)" },
  keys: { value: "FILE", default: undefined, help: "API keys file managed by `shardkit keys` (reloaded on change)" },
  redis: {
    value: "URL",
    default: undefined,
    help: "keys and rate caps shared by every instance, in Redis (`shardkit keys ... --redis URL`); instead of --keys",
  },
  "public-rate": { value: "PER_MINUTE", default: undefined, help: "requests per minute per client address without a key (default: no cap)" },
  "upstream-timeout": {
    value: "MS",
    default: String(DEFAULT_UPSTREAM_TIMEOUT_MS),
    help: "budget of one forwarded request, failover included, before TIMEOUT_ERROR",
  },
  "upstream-retry": { value: "MS", default: String(DEFAULT_UPSTREAM_RETRY_MS), help: "how long a failed upstream is passed over before requests try it again" },
  "probe-interval": { value: "MS", default: String(DEFAULT_PROBE_INTERVAL_MS), help: "interval of the GET /status probes of every upstream; 0 = none" },
  postgres: { value: "URL", default: undefined, help: "PostgreSQL of the shared REST account index (postgres://...; with --index)" },
  "index-from": { value: "HEIGHT", default: undefined, help: "block a fresh index starts at (default: the upstream's genesis)" },
  "log-level": { value: "LEVEL", default: "info", help: "error, warn, info or debug (also every request)" },
} as const satisfies Record<string, GatewayFlag>;

type GatewayFlagName = keyof typeof gatewayFlags;

export const gatewayFlagSpecs = {
  ...(Object.fromEntries(Object.keys(gatewayFlags).map((name) => [name, { type: "string" }])) as Record<GatewayFlagName, { type: "string" }>),
  upstream: { type: "string", multiple: true },
  "archival-upstream": { type: "string", multiple: true },
  ...trustProxyFlagSpec,
  index: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const satisfies FlagSpecs;

export const gatewayUsage = `Usage: shardkit gateway --upstream URL [--upstream URL2 ...] [options]

Runs a stateless gateway in front of nearcore JSON-RPC nodes: regular and archival JSON-RPC
listeners that check every request against the OpenRPC spec as \`serve\` does (bad requests are
answered here and never forwarded), then stream valid ones to the upstream nodes over pooled
keep-alive connections, with a per-request timeout and failover between nodes. API keys and rate
caps as \`serve\`. The REST listener reports upstream health on /status and /health. Run several
behind a load balancer (README, "Deployment (gateway)"). SIGINT/SIGTERM shut it down gracefully.

Options:
${Object.entries(gatewayFlags)
  .map(([name, flag]) => usageLine(`--${name} ${flag.value}`, `${flag.help}${flag.default === undefined ? "" : ` (default ${flag.default})`}`))
  .join("\n")}
${trustProxyUsage}
  --index                      serve REST /v1 from the PostgreSQL index (--postgres); one instance
                               (the advisory-lock leader) follows the upstream's final blocks into it
  -h, --help                   show this help
`;

/** Turns parsed flag strings into gateway options, rejecting values that make no sense. */
export function gatewayOptionsFrom(values: FlagValues<typeof gatewayFlagSpecs>): GatewayOptions & { apiPort: number; redisUrl?: string; postgresUrl?: string; indexFrom?: number } {
  const get = (name: GatewayFlagName): string | undefined => {
    const value = values[name];
    return typeof value === "string" ? value : gatewayFlags[name].default;
  };
  const integer = (name: GatewayFlagName, min: number, max: number): number => {
    const text = get(name) ?? "";
    const value = Number(text);
    if (!/^\d+$/.test(text) || value < min || value > max) {
      throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`, "gateway");
    }
    return value;
  };
  const urls = (name: "upstream" | "archival-upstream"): string[] => {
    const list = values[name] ?? [];
    for (const text of list) {
      let url: URL | undefined;
      try {
        url = new URL(text);
      } catch {
        url = undefined;
      }
      if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) {
        throw new UsageError(`--${name} must be an http:// or https:// URL, got ${JSON.stringify(text)}`, "gateway");
      }
    }
    return list;
  };
  const upstreams = urls("upstream");
  if (upstreams.length === 0) throw new UsageError("--upstream URL is required (a nearcore JSON-RPC node)", "gateway");
  const archivalUpstreams = urls("archival-upstream");
  const keysFile = get("keys");
  if (keysFile !== undefined && keysFile.trim() === "") throw new UsageError("--keys must not be empty", "gateway");
  const redisUrl = get("redis");
  if (redisUrl !== undefined && keysFile !== undefined) {
    throw new UsageError("give --keys FILE or --redis URL, not both (with --redis the keys live in Redis: shardkit keys ... --redis URL)", "gateway");
  }
  if (redisUrl !== undefined && !/^(rediss?:\/\/|\/)/.test(redisUrl)) {
    throw new UsageError(`--redis must be a redis://host:port URL or a unix socket path, got ${JSON.stringify(redisUrl)}`, "gateway");
  }
  const postgres = get("postgres");
  if (values.index === true && postgres === undefined) throw new UsageError("--index needs --postgres URL (the shared index database)", "gateway");
  if (postgres !== undefined && values.index !== true) throw new UsageError("--postgres is the index database: add --index", "gateway");
  if (get("index-from") !== undefined && values.index !== true) throw new UsageError("--index-from needs --index", "gateway");
  if (postgres !== undefined && !/^postgres(ql)?:\/\//.test(postgres)) {
    throw new UsageError(`--postgres must be a postgres:// or postgresql:// URL, got ${JSON.stringify(postgres)}`, "gateway");
  }
  const host = get("host") ?? "127.0.0.1";
  if (host.trim() === "") throw new UsageError("--host must not be empty", "gateway");
  const trustProxy = trustProxyFrom(values, "gateway");
  return {
    host,
    rpcPort: integer("rpc-port", 0, 65535),
    archivalPort: integer("archival-port", 0, 65535),
    apiPort: integer("api-port", 0, 65535),
    ...(get("metrics-port") !== undefined && { metricsPort: integer("metrics-port", 0, 65535) }),
    upstreams,
    ...(archivalUpstreams.length > 0 && { archivalUpstreams }),
    ...(keysFile !== undefined && { keysFile }),
    ...(redisUrl !== undefined && { redisUrl }),
    ...(get("public-rate") !== undefined && { publicRatePerMinute: integer("public-rate", 1, 1_000_000_000) }),
    ...(trustProxy.length > 0 && { trustProxy }),
    upstreamTimeoutMs: integer("upstream-timeout", 1, 600_000),
    upstreamRetryMs: integer("upstream-retry", 1, 3_600_000),
    probeIntervalMs: integer("probe-interval", 0, 3_600_000),
    ...(postgres !== undefined && { postgresUrl: postgres }),
    ...(get("index-from") !== undefined && { indexFrom: integer("index-from", 0, Number.MAX_SAFE_INTEGER) }),
  };
}

/** `shardkit gateway`: starts the gateway, prints its listeners, runs until SIGINT/SIGTERM. */
export async function gatewayCommand(args: string[]): Promise<void> {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(gatewayUsage);
    return;
  }
  const { values, positionals } = parseFlags("gateway", args, gatewayFlagSpecs);
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])} for gateway`, "gateway");
  const options = gatewayOptionsFrom(values);
  const format = process.stdout.isTTY ? "pretty" : "json";
  const level = values["log-level"] ?? gatewayFlags["log-level"].default;
  if (!isLogLevel(level)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(", ")}, got ${JSON.stringify(level)}`, "gateway");
  const logger = createLogger({ level, format, write: (line) => process.stdout.write(line) });
  // Loaded here, not at start-up: other commands need neither undici nor the listeners.
  const { startGateway } = await import("../gateway/startGateway.js");
  // With --redis, keys and caps come from Redis (a clear error when it cannot be reached).
  const { redisUrl, postgresUrl, indexFrom, ...gatewayOptions } = options;
  const access =
    redisUrl === undefined
      ? undefined
      : await (
          await import("../gateway/redis/RedisAccessGate.js")
        ).RedisAccessGate.connect(redisUrl, {
          ...(options.publicRatePerMinute !== undefined && { publicRatePerMinute: options.publicRatePerMinute }),
          clientAddress: clientAddressOf(options.trustProxy ?? []),
          onReport: (message, level) => logger[level]("redis", { message }),
        });
  // Loaded only with --index, so other commands never load the PostgreSQL client.
  const Index = postgresUrl === undefined ? undefined : (await import("../gateway/index/PostgresGatewayIndex.js")).PostgresGatewayIndex;
  // Opened by the gateway with its own upstream calls: the index follows over the pool it forwards over.
  const index =
    postgresUrl === undefined || Index === undefined
      ? undefined
      : (call: UpstreamCall) =>
          Index.start({
            postgresUrl,
            upstreamUrls: options.upstreams,
            call,
            ...(indexFrom !== undefined && { startHeight: indexFrom }),
            log: (line, level) => logger[level](line),
          });
  const gateway = await startGateway({
    ...gatewayOptions,
    ...(access !== undefined && { access }),
    ...(index !== undefined && { index }),
    logger,
    onInternalError: (method, error) =>
      logger.error("internal error", { method, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    onKeysReport: (message) => (/ reloaded: /.test(message) ? logger.info("keys file", { message }) : logger.warn("keys file", { message })),
  }).catch((error: unknown) => {
    throw listenError(error, options, "gateway") ?? error;
  });
  shutdownOnSignals(gateway);
  const list = (labels: readonly string[]) => labels.join(", ");
  console.log(`shardkit: gateway in front of ${gateway.regular.upstreams.length} upstream node(s)`);
  console.log(`  regular RPC   ${gateway.rpcUrl}  -> ${list(gateway.regular.upstreams.map((u) => u.label))}`);
  const archivalNote = gateway.archival === gateway.regular ? " (no --archival-upstream: the regular nodes)" : "";
  console.log(`  archival RPC  ${gateway.archivalUrl}  -> ${list(gateway.archival.upstreams.map((u) => u.label))}${archivalNote}`);
  console.log(`  REST API      ${gateway.apiUrl}/v1  (${index === undefined ? "no account index: /v1 answers 503; /status and /health report the upstreams" : "account data from the shared index"})`);
  if (gateway.metricsUrl !== undefined) console.log(`  metrics       ${gateway.metricsUrl}  (Prometheus)`);
}
