import { ShardkitError } from "@shardkit/primitives/ShardkitError";
import { Redis } from "ioredis";
import { errorMessage } from "@shardkit/primitives/errorMessage";

/** Failures to reach or use Redis, said with the URL (never its password). */
export class RedisUnavailableError extends ShardkitError<"REDIS_UNAVAILABLE"> {
  override readonly name = "RedisUnavailableError";
  constructor(message: string, options?: { cause?: unknown }) {
    super("REDIS_UNAVAILABLE", message, options);
  }
}

/** The URL without credentials, for messages and logs. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "" || parsed.username !== "") {
      parsed.username = "";
      parsed.password = "";
    }
    return parsed.toString();
  } catch {
    return url.startsWith("/") ? url : "(unparsable Redis URL)";
  }
}

/** Checks the `--redis` value: redis://host:port[/db], rediss://..., or a unix socket path. */
export function checkRedisUrl(url: string): void {
  if (url.startsWith("/")) return;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RedisUnavailableError(`--redis must be a redis://host:port URL or a unix socket path, got ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") {
    throw new RedisUnavailableError(`--redis must use redis:// or rediss://, got ${JSON.stringify(parsed.protocol)}`);
  }
}

export interface ConnectRedisOptions {
  /** How long the first connection may take before giving up with a clear error. */
  readonly connectTimeoutMs?: number;
  /**
   * Long-running clients (the gateway) reconnect forever, every <= 1 s, so a restarted Redis is
   * picked up within a second; one-shot clients (`shardkit keys`) fail at the first loss.
   */
  readonly reconnect: boolean;
  /** A command with no reply after this long fails (a hung Redis must not hang requests). */
  readonly commandTimeoutMs?: number;
  /**
   * false: commands issued while disconnected fail at once instead of waiting in a queue (the
   * gateway's checks fall back rather than wait); the subscriber keeps the default queue.
   */
  readonly offlineQueue: boolean;
  readonly connectionName?: string;
}

/** One ioredis connection, resolved once it is ready; a clear error when Redis cannot be reached. */
export async function connectRedis(url: string, options: ConnectRedisOptions): Promise<Redis> {
  checkRedisUrl(url);
  const timeoutMs = options.connectTimeoutMs ?? 5000;
  const client = new Redis(url, {
    lazyConnect: true,
    replyMapping: "legacy",
    enableOfflineQueue: options.offlineQueue,
    maxRetriesPerRequest: options.reconnect ? 1 : 0,
    connectTimeout: timeoutMs,
    ...(options.commandTimeoutMs !== undefined && { commandTimeout: options.commandTimeoutMs }),
    ...(options.connectionName !== undefined && { connectionName: options.connectionName }),
    retryStrategy: options.reconnect ? (times: number) => Math.min(50 * times, 1000) : () => null,
  });
  // ioredis reports every failed reconnect as an "error" event; without a listener Node would
  // throw it. The owners log state changes through "close"/"ready" instead.
  client.on("error", () => {});
  const where = redactRedisUrl(url);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.connect(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new RedisUnavailableError(`cannot reach Redis at ${where} within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } catch (error) {
    client.disconnect();
    if (error instanceof RedisUnavailableError) throw error;
    throw new RedisUnavailableError(`cannot reach Redis at ${where}: ${errorMessage(error)}`);
  } finally {
    clearTimeout(timer);
  }
  return client;
}
