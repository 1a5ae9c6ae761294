/** Defaults of the gateway's options, apart so the CLI can show them without loading the gateway. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 15_000;
export const DEFAULT_UPSTREAM_RETRY_MS = 5_000;
export const DEFAULT_PROBE_INTERVAL_MS = 2_000;
export const DEFAULT_UPSTREAM_CONNECTIONS = 256;
