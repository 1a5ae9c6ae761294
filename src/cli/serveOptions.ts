import type { ForkOptions } from "../chain/node.js";
import type { ServiceOptions } from "../server/startService.js";
import { isLogLevel, LOG_LEVELS, type LogLevel } from "../server/log/Logger.js";
import { DEFAULT_PROTOCOL_VERSION, parseGenesisTime } from "../chain/genesis/GenesisConfig.js";
import { MAX_SUPPORTED_PROTOCOL_VERSION } from "../chain/runtime/protocolFeature.js";
import { UsageError, type FlagSpecs, type FlagValues } from "./flags.js";
import { trustProxyFlagSpec, trustProxyFrom, trustProxyUsage } from "./trustProxyFlag.js";
import { usageLine } from "./usageLine.js";

/** Genesis time of the dev genesis unless --genesis-time says otherwise: a fixed one makes the genesis hash reproducible, as Anvil's chain is. */
export const DEV_GENESIS_TIME = "2025-01-01T00:00:00Z";

interface ServeFlag {
  /** What the value is, for --help ("PORT", "MS", ...). */
  value: string;
  default: string | undefined;
  help: string;
}

/** Valued flags of `shardkit serve`, their defaults and help text: one table drives parsing, validation messages and --help. */
export const serveFlags = {
  host: { value: "ADDRESS", default: "127.0.0.1", help: "interface to bind every listener to" },
  "rpc-port": { value: "PORT", default: "3030", help: "regular JSON-RPC listener (recent blocks only); 0 = any free port" },
  "archival-port": { value: "PORT", default: "3031", help: "archival JSON-RPC listener (every block); 0 = any free port" },
  "api-port": { value: "PORT", default: "3040", help: "REST account-data listener (/v1, /status, /health); 0 = any free port" },
  "metrics-port": { value: "PORT", default: undefined, help: "Prometheus /metrics listener, no API key: bind where only the scraper reaches (default: none)" },
  "block-time": { value: "MS", default: "1000", help: "milliseconds between blocks; 0 = produce blocks only on demand" },
  shards: { value: "N", default: undefined, help: "number of shards, 1 to 26 (default 4, or the genesis file's layout)" },
  genesis: { value: "FILE", default: undefined, help: "nearcore genesis JSON file to start from (default: the dev genesis)" },
  "genesis-time": {
    value: "ISO",
    default: DEV_GENESIS_TIME,
    help: "genesis time of a new dev genesis (RFC 3339); fixed, so the same flags give the same genesis hash",
  },
  "protocol-version": {
    value: "N",
    default: undefined,
    help: `protocol version a new chain runs, 1 to ${MAX_SUPPORTED_PROTOCOL_VERSION} (default ${DEFAULT_PROTOCOL_VERSION}, the genesis file's, or a fork's upstream's)`,
  },
  fork: { value: "URL", default: undefined, help: "fork this JSON-RPC node's chain: continue from its block, reading its state lazily (an archival node for old blocks)" },
  "fork-block": { value: "HEIGHT|HASH", default: undefined, help: "block to fork at (default: the upstream's final block)" },
  "fork-archival": { value: "URL", default: undefined, help: "where blocks and chunks at or below the fork block are read (default: --fork)" },
  "fork-api-key": { value: "KEY", default: undefined, help: "API key sent to the upstream as a Bearer token (default: $SHARDKIT_FORK_API_KEY)" },
  "fork-rps": { value: "N", default: "20", help: "most upstream requests per second, so public RPCs are not hammered" },
  keys: { value: "FILE", default: undefined, help: "API keys file managed by `shardkit keys` (reloaded on change)" },
  "public-rate": { value: "PER_MINUTE", default: undefined, help: "requests per minute per client address without a key (default: no cap)" },
  "tx-timeout": { value: "MS", default: "10000", help: "milliseconds a transaction method waits for its wait_until before TIMEOUT_ERROR" },
  "view-timeout-ms": { value: "MS", default: "1000", help: "milliseconds one query call_function may run; views share at most half the thread, then TIMEOUT_ERROR" },
  "data-dir": { value: "DIR", default: "./.shardkit", help: "directory the chain is kept in (created when missing; resumed when it holds a chain)" },
  "log-level": { value: "LEVEL", default: "info", help: "error, warn, info (transaction and receipt outcomes) or debug (also every request and block)" },
  retention: { value: "BLOCKS", default: "1000", help: "blocks whose state the regular listener keeps serving (>= 3, so final blocks stay readable)" },
} as const satisfies Record<string, ServeFlag>;

export type ServeFlagName = keyof typeof serveFlags;

/** Every flag `serve` accepts, for the parser. */
export const serveFlagSpecs = {
  ...(Object.fromEntries(Object.keys(serveFlags).map((name) => [name, { type: "string" }])) as Record<ServeFlagName, { type: "string" }>),
  ...trustProxyFlagSpec,
  ephemeral: { type: "boolean" },
  "print-accounts": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const satisfies FlagSpecs;

export type ServeFlagValues = FlagValues<typeof serveFlagSpecs>;

export const serveUsage = `Usage: shardkit serve [options]

Runs a local NEAR-compatible node on a simulated sharded dev chain: a regular and an archival
JSON-RPC listener and a REST account-data listener. Prints the listeners and the funded dev
accounts with their keys. SIGINT/SIGTERM shut it down gracefully.

Options:
${Object.entries(serveFlags)
  .map(([name, flag]) => usageLine(`--${name} ${flag.value}`, `${flag.help}${flag.default === undefined ? "" : ` (default ${flag.default})`}`))
  .join("\n")}
${trustProxyUsage}
${usageLine("--ephemeral", "keep the chain in memory only (lost on exit) instead of in --data-dir")}
${usageLine("--print-accounts", "print the chain's dev accounts (keys, balances at the head) as JSON and exit")}
${usageLine("-h, --help", "show this help")}
`;

/** The --log-level value, checked. */
export function logLevelFrom(values: Partial<Record<ServeFlagName, string>>): LogLevel {
  const text = values["log-level"] ?? serveFlags["log-level"].default;
  if (!isLogLevel(text)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(", ")}, got ${JSON.stringify(text)}`, "serve");
  return text;
}

/** Turns parsed flag strings into service options, rejecting values that make no sense. */
export function serveOptionsFrom(
  values: Partial<Record<ServeFlagName, string>> & { ephemeral?: boolean; "trust-proxy"?: string[] },
): ServiceOptions & { apiPort: number } {
  const get = (name: ServeFlagName): string | undefined => values[name] ?? serveFlags[name].default;
  const integer = (name: ServeFlagName, min: number, max: number): number => {
    const text = get(name) ?? "";
    const value = Number(text);
    if (!/^\d+$/.test(text) || value < min || value > max) {
      throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`, "serve");
    }
    return value;
  };
  const nonEmpty = (name: ServeFlagName): string | undefined => {
    const text = get(name);
    if (text !== undefined && text.trim() === "") throw new UsageError(`--${name} must not be empty`, "serve");
    return text;
  };
  const genesisFile = nonEmpty("genesis");
  if (genesisFile !== undefined && values["genesis-time"] !== undefined) {
    throw new UsageError("--genesis-time sets the time of the dev genesis; a --genesis file has its own genesis_time", "serve");
  }
  const genesisTimeText = get("genesis-time") ?? DEV_GENESIS_TIME;
  let genesisTimeMs: number;
  try {
    genesisTimeMs = Number(parseGenesisTime(genesisTimeText) / 1_000_000n);
  } catch {
    throw new UsageError(`--genesis-time must be an RFC 3339 time such as ${DEV_GENESIS_TIME}, got ${JSON.stringify(genesisTimeText)}`, "serve");
  }
  if (genesisTimeMs < 0) throw new UsageError(`--genesis-time must not be before 1970, got ${JSON.stringify(genesisTimeText)}`, "serve");
  const fork = forkOptionsFrom(values, genesisFile, integer);
  const keysFile = nonEmpty("keys");
  const publicRate = get("public-rate");
  const trustProxy = trustProxyFrom(values, "serve");
  if (values.ephemeral === true && values["data-dir"] !== undefined) throw new UsageError("--ephemeral and --data-dir exclude each other", "serve");
  const dataDir = values.ephemeral === true ? undefined : get("data-dir");
  if (dataDir !== undefined && dataDir.trim() === "") throw new UsageError("--data-dir must not be empty", "serve");
  return {
    host: nonEmpty("host") ?? "127.0.0.1",
    rpcPort: integer("rpc-port", 0, 65535),
    archivalPort: integer("archival-port", 0, 65535),
    apiPort: integer("api-port", 0, 65535),
    ...(get("metrics-port") !== undefined && { metricsPort: integer("metrics-port", 0, 65535) }),
    retention: integer("retention", 3, Number.MAX_SAFE_INTEGER),
    txTimeoutMs: integer("tx-timeout", 1, 600_000),
    viewTimeoutMs: integer("view-timeout-ms", 1, 3_000),
    chain: {
      blockTimeMs: integer("block-time", 0, 3_600_000),
      // Only when asked: otherwise a genesis file's own layout (or the dev default) applies.
      ...(values.shards !== undefined && { shards: integer("shards", 1, 26) }),
      ...(values["protocol-version"] !== undefined && { protocolVersion: integer("protocol-version", 1, MAX_SUPPORTED_PROTOCOL_VERSION) }),
      ...(genesisFile !== undefined ? { genesisFile } : fork === undefined ? { genesisTimeMs } : { fork }),
      ...(dataDir !== undefined && { dataDir }),
    },
    ...(keysFile !== undefined && { keysFile }),
    ...(publicRate !== undefined && { publicRatePerMinute: integer("public-rate", 1, 1_000_000_000) }),
    ...(trustProxy.length > 0 && { trustProxy }),
  };
}

const BASE58_HASH = /^[1-9A-HJ-NP-Za-km-z]{43,44}$/;

/** The --fork* flags, checked: the upstream URL, the block, its archival node, key and rate cap. */
function forkOptionsFrom(
  values: Partial<Record<ServeFlagName, string>>,
  genesisFile: string | undefined,
  integer: (name: ServeFlagName, min: number, max: number) => number,
): ForkOptions | undefined {
  const url = values.fork;
  if (url === undefined) {
    for (const name of ["fork-block", "fork-archival", "fork-api-key", "fork-rps"] as const) {
      if (values[name] !== undefined) throw new UsageError(`--${name} needs --fork URL`, "serve");
    }
    return undefined;
  }
  const httpUrl = (name: "fork" | "fork-archival", text: string): string => {
    let parsed: URL;
    try {
      parsed = new URL(text);
    } catch {
      throw new UsageError(`--${name} must be an http(s) URL, got ${JSON.stringify(text)}`, "serve");
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new UsageError(`--${name} must be an http(s) URL, got ${JSON.stringify(text)}`, "serve");
    return text;
  };
  if (genesisFile !== undefined) throw new UsageError("--fork continues the upstream's chain: it takes no --genesis", "serve");
  if (values["genesis-time"] !== undefined) throw new UsageError("--fork continues the upstream's chain: its time comes from the fork block, not --genesis-time", "serve");
  const blockText = values["fork-block"];
  let block: number | string | undefined;
  if (blockText !== undefined) {
    if (/^\d+$/.test(blockText) && Number.isSafeInteger(Number(blockText))) block = Number(blockText);
    else if (BASE58_HASH.test(blockText)) block = blockText;
    else throw new UsageError(`--fork-block must be a block height or a base58 block hash, got ${JSON.stringify(blockText)}`, "serve");
  }
  const archival = values["fork-archival"];
  const apiKey = values["fork-api-key"] ?? process.env["SHARDKIT_FORK_API_KEY"];
  return {
    url: httpUrl("fork", url),
    ...(block !== undefined && { block }),
    ...(archival !== undefined && { archivalUrl: httpUrl("fork-archival", archival) }),
    ...(apiKey !== undefined && apiKey !== "" && { apiKey }),
    requestsPerSecond: integer("fork-rps", 1, 10_000),
  };
}
