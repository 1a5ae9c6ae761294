import type { Redis } from "ioredis";
import { KeyRing } from "../../server/http/keyRing.js";
import type { RedisKeyStore } from "./RedisKeyStore.js";
import { errorMessage } from "@shardkit/primitives/errorMessage";

/** A state change worth a log line, with its level (outages and their ends are `warn`). */
export type RedisReport = (message: string, level: "info" | "warn") => void;

/** How often each instance compares the keys version with its own (a net under lost messages). */
export const REDIS_KEYS_POLL_MS = 1000;

/**
 * The API keys of Redis, kept in memory so a lookup costs no round trip. A change made with
 * `shardkit keys ... --redis` publishes the new version and every instance reloads at once; a
 * poll of the version every second catches anything the subscription missed (a message sent
 * while the subscriber was reconnecting), and a reconnect reloads. When Redis is unreachable or
 * holds a broken entry, the last good keys keep serving (as with the keys file).
 */
export class RedisKeysWatcher {
  private ring: KeyRing = KeyRing.EMPTY;
  private loadedVersion = -1;
  private loading: Promise<void> | undefined;
  private loadAgain = false;
  private readonly poll: NodeJS.Timeout;
  private readonly onMessage = (channel: string, message: string): void => {
    if (channel === this.store.layout.channel && Number(message) !== this.loadedVersion) void this.refresh();
  };
  private readonly onReady = (): void => void this.refresh();

  private constructor(
    private readonly store: RedisKeyStore,
    private readonly client: Redis,
    private readonly subscriber: Redis,
    private readonly onReport: RedisReport,
    pollMs: number,
  ) {
    this.poll = setInterval(() => void this.checkVersion(), pollMs);
    this.poll.unref();
  }

  /** Subscribes, then loads the keys (throws when the first load fails: a gateway must not start keyless). */
  static async open(
    store: RedisKeyStore,
    client: Redis,
    subscriber: Redis,
    onReport: RedisReport = () => {},
    pollMs = REDIS_KEYS_POLL_MS,
  ): Promise<RedisKeysWatcher> {
    // Subscribe before the first load, so no change can fall between the two.
    await subscriber.subscribe(store.layout.channel);
    const watcher = new RedisKeysWatcher(store, client, subscriber, onReport, pollMs);
    subscriber.on("message", watcher.onMessage);
    client.on("ready", watcher.onReady);
    subscriber.on("ready", watcher.onReady);
    try {
      const first = await store.snapshot();
      watcher.ring = new KeyRing(first.keys);
      watcher.loadedVersion = first.version;
    } catch (error) {
      watcher.close();
      throw error;
    }
    return watcher;
  }

  current(): KeyRing {
    return this.ring;
  }

  /** The keys version this instance serves. */
  get version(): number {
    return this.loadedVersion;
  }

  /** Reloads now; concurrent calls share one load and a call during a load causes one more. */
  refresh(): Promise<void> {
    if (this.loading !== undefined) {
      this.loadAgain = true;
      return this.loading;
    }
    this.loading = (async () => {
      do {
        this.loadAgain = false;
        try {
          const { version, keys } = await this.store.snapshot();
          const changed = version !== this.loadedVersion;
          this.ring = new KeyRing(keys);
          this.loadedVersion = version;
          if (changed && keys.length === 0) {
            // A Redis that came back empty (restarted without persistence, flushed): every key is refused.
            this.onReport(`Redis keys reloaded: 0 keys, version ${version}: every request with a key is refused (403) until keys are added`, "warn");
          } else if (changed) {
            this.onReport(`Redis keys reloaded: ${keys.length} key(s), version ${version}`, "info");
          }
        } catch (error) {
          this.onReport(`cannot reload the Redis keys (${errorMessage(error)}); still serving the last good version`, "warn");
          return;
        }
      } while (this.loadAgain);
    })().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async checkVersion(): Promise<void> {
    if (this.client.status !== "ready" || this.loading !== undefined) return;
    try {
      if ((await this.store.version()) !== this.loadedVersion) await this.refresh();
    } catch {
      // Redis is away; the connection's events report it and a reconnect reloads.
    }
  }

  close(): void {
    clearInterval(this.poll);
    this.subscriber.off("message", this.onMessage);
    this.client.off("ready", this.onReady);
    this.subscriber.off("ready", this.onReady);
  }
}
