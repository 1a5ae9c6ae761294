import type { Redis } from "ioredis";
import { redisKeyLayout } from "./redisKeyLayout.js";
import { RedisScript } from "./RedisScript.js";

/**
 * One token bucket per client, shared by every gateway instance: the same rule as the
 * in-process RateLimiter (src/server/http/RateLimiter.ts), computed inside Redis.
 *
 * - A bucket holds at most `cap` tokens and starts full: a burst of `cap` requests passes.
 * - It refills continuously at cap / 60 tokens per second, measured with Redis' own clock
 *   (TIME), so the instances' clocks do not matter.
 * - A request takes one token; with less than one left it is refused and told how many whole
 *   seconds until the next token (Retry-After, at least 1).
 * - A changed cap starts a fresh full bucket (as the in-process limiter does).
 * - The bucket expires when it would be full again: an expired bucket and a full one are the
 *   same state, so no counter outlives its use and none is left without an expiry.
 *
 * One script run per check is atomic in Redis, so however many instances ask at once, a key
 * capped at N per minute gets a burst of N and N per minute in total, not N per instance.
 * KEYS[1] = the bucket; ARGV[1] = the cap per minute. Returns 0 (allowed) or the seconds to wait.
 */
const TAKE_TOKEN = new RedisScript(`
local cap = tonumber(ARGV[1])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + tonumber(clock[2]) / 1000
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'at', 'cap')
local tokens = tonumber(bucket[1])
local at = tonumber(bucket[2])
if tokens == nil or at == nil or tonumber(bucket[3]) ~= cap then
  tokens = cap
  at = now
end
local perMs = cap / 60000
if now > at then tokens = math.min(cap, tokens + (now - at) * perMs) end
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
else
  wait = math.max(1, math.ceil((1 - tokens) / perMs / 1000))
end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', string.format('%.17g', now), 'cap', ARGV[1])
redis.call('PEXPIRE', KEYS[1], math.ceil((cap - tokens) / perMs) + 1)
return wait
`);

/** The shared rate cap: one EVALSHA per check. */
export class RedisRateCap {
  private readonly prefix: string;

  constructor(
    private readonly client: Redis,
    prefix?: string,
  ) {
    this.prefix = redisKeyLayout(prefix).ratePrefix;
  }

  /** Takes one request from `client`'s bucket: 0 when allowed, else the seconds to wait. */
  async take(client: string, perMinute: number): Promise<number> {
    return Number(await TAKE_TOKEN.run(this.client, [`${this.prefix}${client}`], [perMinute]));
  }

  /** The script's digest (the bench and tests load it ahead). */
  static readonly script = TAKE_TOKEN;
}
