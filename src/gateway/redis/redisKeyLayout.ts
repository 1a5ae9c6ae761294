/**
 * Where the gateway's shared state lives in Redis. Every name starts with one prefix
 * (default `shardkit:`), so several deployments can share a Redis.
 *
 * - `<prefix>keys`          hash: key name -> JSON StoredKey (the sha256 of the key, never the key)
 * - `<prefix>keys:version`  integer, incremented by every change of `<prefix>keys`
 * - `<prefix>keys:changed`  pub/sub channel: the new version, published by every change
 * - `<prefix>rate:<client>` hash {tokens, at, cap}: one token bucket (see rateCapScript.ts),
 *                           with an expiry at the time it would be full again
 */
export interface RedisKeyLayout {
  readonly keys: string;
  readonly version: string;
  readonly channel: string;
  ratePrefix: string;
}

export const DEFAULT_REDIS_PREFIX = "shardkit:";

export function redisKeyLayout(prefix: string = DEFAULT_REDIS_PREFIX): RedisKeyLayout {
  return {
    keys: `${prefix}keys`,
    version: `${prefix}keys:version`,
    channel: `${prefix}keys:changed`,
    ratePrefix: `${prefix}rate:`,
  };
}
