import { isJsonObject } from "@shardkit/primitives/isJsonObject";

/** A NEP-297 event as logged by a contract: `EVENT_JSON:{"standard","version","event","data"}`. */
export interface Nep297Event {
  readonly standard: string;
  readonly version: string;
  readonly event: string;
  /** Every entry of `data` (an object `data` counts as one entry). */
  readonly data: readonly Record<string, unknown>[];
}

const PREFIX = "EVENT_JSON:";

/** Parses one log line; undefined for anything that is not a well-formed NEP-297 event. */
export function parseNep297Log(log: string): Nep297Event | undefined {
  if (!log.startsWith(PREFIX)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(log.slice(PREFIX.length));
  } catch {
    return undefined;
  }
  if (!isJsonObject(parsed)) return undefined;
  const { standard, version, event, data } = parsed;
  if (typeof standard !== "string" || typeof version !== "string" || typeof event !== "string") return undefined;
  const entries = Array.isArray(data) ? data : data === undefined ? [] : [data];
  return {
    standard,
    version,
    event,
    data: entries.filter(isJsonObject),
  };
}
