import type { IncomingMessage } from "node:http";
import type { Redis } from "ioredis";
import { decideAccess, type AccessDecision } from "../../server/http/AccessControl.js";
import type { AccessGate } from "../../server/http/AccessGate.js";
import { clientAddressOf, type ClientAddressOf } from "../../server/http/clientAddress.js";
import type { KeyRing } from "../../server/http/keyRing.js";
import { RateLimiter } from "../../server/http/RateLimiter.js";
import { connectRedis, redactRedisUrl } from "./connectRedis.js";
import { RedisKeysWatcher, REDIS_KEYS_POLL_MS, type RedisReport } from "./RedisKeysWatcher.js";
import { RedisKeyStore } from "./RedisKeyStore.js";
import { RedisRateCap } from "./RedisRateCap.js";
import { errorMessage } from "@shardkit/primitives/errorMessage";

export interface RedisAccessGateOptions {
  /** Prefix of every Redis name (default `shardkit:`). */
  readonly prefix?: string;
  /** Requests per minute per client address without a key (shared across instances); undefined = no cap. */
  readonly publicRatePerMinute?: number;
  /** Who a keyless request counts as (default: the TCP peer; `--trust-proxy`, see clientAddress.ts). */
  readonly clientAddress?: ClientAddressOf;
  /** Connection losses and reconnects (`warn`: one line when an outage starts, one when it ends), reloads (never a key). */
  readonly onReport?: RedisReport;
  readonly pollMs?: number;
  /** A rate check with no reply after this long falls back to the local limiter (default 250 ms). */
  readonly commandTimeoutMs?: number;
  /** How long start-up may wait for Redis (default 5 s). */
  readonly connectTimeoutMs?: number;
}

const ALLOW: AccessDecision = { kind: "allow" };

/** What /health reports about the gateway's Redis. */
export interface RedisHealth {
  /** The URL without credentials. */
  readonly url: string;
  /** True while the shared caps are in force. */
  readonly up: boolean;
  /** Why Redis was last seen unreachable (null when it never was). */
  readonly lastError: string | null;
}

/**
 * The gateway's access check with the keys and rate caps in Redis: the same decisions as
 * AccessControl (unknown key 403, origin rules for browser keys, 429 with Retry-After), for
 * every instance at once.
 *
 * - Keys are looked up in memory (RedisKeysWatcher), so requests without a rate cap, unknown
 *   keys and refused origins are answered synchronously, with no Redis round trip.
 * - A rate-capped request costs one EVALSHA (RedisRateCap): the cap holds across instances.
 * - While Redis is unreachable (down, restarting, or no reply within commandTimeoutMs) the gate
 *   fails open to a per-instance limit rather than closed: each instance enforces the cap with
 *   its own in-process token bucket (so the total is at most N per instance), known keys keep
 *   working from the last loaded version, and no request waits on Redis longer than the timeout.
 *   Refusing all traffic because the cap store is away would turn a Redis outage into a full
 *   outage. Once ioredis reconnects, the shared caps apply again and the keys are reloaded.
 */
export class RedisAccessGate implements AccessGate {
  private readonly fallback = new RateLimiter();
  private redisDown = false;
  private lastError: string | null = null;
  private readonly clientAddress: ClientAddressOf;
  private readonly onClose = (): void => this.markDown("connection closed");
  private readonly onReady = (): void => {
    if (!this.redisDown) return;
    this.redisDown = false;
    this.report(`Redis at ${this.where} is back: shared rate caps apply again`, "warn");
  };

  private constructor(
    private readonly client: Redis,
    private readonly subscriber: Redis,
    private readonly rateCap: RedisRateCap,
    readonly keys: RedisKeysWatcher,
    private readonly options: RedisAccessGateOptions,
    private readonly where: string,
  ) {
    this.clientAddress = options.clientAddress ?? clientAddressOf([]);
    client.on("close", this.onClose);
    client.on("ready", this.onReady);
  }

  /** Connects (two connections: commands and the change subscription) and loads the keys. */
  static async connect(url: string, options: RedisAccessGateOptions = {}): Promise<RedisAccessGate> {
    const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
    const client = await connectRedis(url, {
      reconnect: true,
      offlineQueue: false,
      commandTimeoutMs: options.commandTimeoutMs ?? 250,
      connectTimeoutMs,
      connectionName: "shardkit-gateway",
    });
    let subscriber: Redis;
    try {
      subscriber = await connectRedis(url, { reconnect: true, offlineQueue: true, connectTimeoutMs, connectionName: "shardkit-gateway-keys" });
    } catch (error) {
      client.disconnect();
      throw error;
    }
    try {
      const store = new RedisKeyStore(client, options.prefix);
      const report = options.onReport ?? (() => {});
      const keys = await RedisKeysWatcher.open(store, client, subscriber, report, options.pollMs ?? REDIS_KEYS_POLL_MS);
      await client.script("LOAD", RedisRateCap.script.source);
      return new RedisAccessGate(client, subscriber, new RedisRateCap(client, options.prefix), keys, options, redactRedisUrl(url));
    } catch (error) {
      client.disconnect();
      subscriber.disconnect();
      throw error;
    }
  }

  check(req: IncomingMessage, url: URL): AccessDecision | Promise<AccessDecision> {
    return decideAccess(req, url, this.currentKeys(), this.options.publicRatePerMinute, this.clientAddress, this.limited);
  }

  currentKeys(): KeyRing {
    return this.keys.current();
  }

  health(): RedisHealth {
    return { url: this.where, up: this.shared, lastError: this.lastError };
  }

  /** Whether the shared caps are in force (false while falling back to per-instance limits). */
  get shared(): boolean {
    return !this.redisDown && this.client.status === "ready";
  }

  async close(): Promise<void> {
    this.keys.close();
    this.client.off("close", this.onClose);
    this.client.off("ready", this.onReady);
    // QUIT when connected; while Redis is away a QUIT would wait in the subscriber's queue, so drop the sockets.
    await Promise.allSettled([this.client, this.subscriber].map((c) => (c.status === "ready" ? c.quit() : (c.disconnect(), undefined))));
  }

  private readonly limited = (client: string, perMinute: number): AccessDecision | Promise<AccessDecision> => {
    if (this.client.status !== "ready") {
      this.markDown(`status ${this.client.status}`);
      return this.local(client, perMinute);
    }
    return this.rateCap.take(client, perMinute).then(
      (wait) => {
        // A Redis that hung (timeouts) without dropping the connection is back once it answers.
        if (this.redisDown) this.onReady();
        return wait === 0 ? ALLOW : { kind: "rate-limited", retryAfterSec: wait };
      },
      (error: unknown) => {
        this.markDown(errorMessage(error));
        return this.local(client, perMinute);
      },
    );
  };

  private local(client: string, perMinute: number): AccessDecision {
    const wait = this.fallback.take(client, perMinute);
    return wait === 0 ? ALLOW : { kind: "rate-limited", retryAfterSec: wait };
  }

  private markDown(why: string): void {
    if (this.redisDown) return;
    this.redisDown = true;
    this.lastError = why;
    this.report(`Redis at ${this.where} unreachable (${why}): rate caps are enforced per instance until it is back`, "warn");
  }

  private report(message: string, level: "info" | "warn"): void {
    this.options.onReport?.(message, level);
  }
}
