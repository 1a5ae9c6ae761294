import type { ServiceOptions } from "../server/startService.js";

/** Flags of `shardkit serve`, their defaults and help text: one table drives parsing and --help. */
export const serveFlags = {
  host: { default: "127.0.0.1", help: "interface to bind every listener to" },
  "rpc-port": { default: "3030", help: "regular JSON-RPC listener (recent blocks only)" },
  "archival-port": { default: "3031", help: "archival JSON-RPC listener (every block)" },
  "api-port": { default: "3040", help: "REST account-data listener (/v1, /status, /health)" },
  "block-time": { default: "1000", help: "milliseconds between blocks; 0 = produce blocks only on demand" },
  shards: { default: undefined, help: "number of shards, 1 to 26 (default 4, or the genesis file's layout)" },
  genesis: { default: undefined, help: "nearcore genesis JSON file to start from (default: the dev genesis)" },
  keys: { default: undefined, help: "API keys file managed by `shardkit keys` (reloaded on change)" },
  "public-rate": { default: undefined, help: "requests per minute per client address without a key (default: no cap)" },
  "tx-timeout": { default: "10000", help: "milliseconds a transaction method waits for its wait_until before TIMEOUT_ERROR" },
  "view-timeout-ms": { default: "1000", help: "milliseconds one query call_function may run; views share at most half the thread, then TIMEOUT_ERROR" },
  retention: { default: "1000", help: "blocks whose state the regular listener keeps serving (>= 3, so final blocks stay readable)" },
} as const;

export type ServeFlagName = keyof typeof serveFlags;

/** Turns parsed flag strings into service options, rejecting values that make no sense. */
export function serveOptionsFrom(values: Partial<Record<ServeFlagName, string>>): ServiceOptions & { apiPort: number } {
  const get = (name: ServeFlagName): string | undefined => values[name] ?? serveFlags[name].default;
  const integer = (name: ServeFlagName, min: number, max: number): number => {
    const text = get(name) ?? "";
    const value = Number(text);
    if (!/^\d+$/.test(text) || value < min || value > max) {
      throw new Error(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`);
    }
    return value;
  };
  const genesisFile = get("genesis");
  const keysFile = get("keys");
  const publicRate = get("public-rate");
  return {
    host: get("host") ?? "127.0.0.1",
    rpcPort: integer("rpc-port", 0, 65535),
    archivalPort: integer("archival-port", 0, 65535),
    apiPort: integer("api-port", 0, 65535),
    retention: integer("retention", 3, Number.MAX_SAFE_INTEGER),
    txTimeoutMs: integer("tx-timeout", 1, 600_000),
    viewTimeoutMs: integer("view-timeout-ms", 1, 3_000),
    chain: {
      blockTimeMs: integer("block-time", 0, 3_600_000),
      // Only when asked: otherwise a genesis file's own layout (or the dev default) applies.
      ...(values.shards !== undefined && { shards: integer("shards", 1, 26) }),
      ...(genesisFile !== undefined && { genesisFile }),
    },
    ...(keysFile !== undefined && { keysFile }),
    ...(publicRate !== undefined && { publicRatePerMinute: integer("public-rate", 1, 1_000_000_000) }),
  };
}
