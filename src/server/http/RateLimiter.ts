/** Buckets examined per new client once the limiter is full: two, so it shrinks back over time. */
const PRUNE_PER_NEW_CLIENT = 2;

/**
 * Per-client token buckets: `perMinute` requests, refilled continuously (perMinute / 60 per
 * second), so a burst of at most `perMinute` passes and the steady rate is the cap. Node runs
 * one request callback at a time, so take() is atomic however many requests are in flight.
 */
export class RateLimiter {
  /** In least-recently-used order: take() moves a client's bucket to the end. */
  private readonly buckets = new Map<string, { tokens: number; at: number; perMinute: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    /** Above this many tracked clients, buckets that are full again are dropped. */
    private readonly maxTracked = 100_000,
  ) {}

  /** Takes one request from `client`'s bucket: 0 when allowed, else the seconds to wait. */
  take(client: string, perMinute: number): number {
    const now = this.now();
    let bucket = this.buckets.get(client);
    if (bucket !== undefined) this.buckets.delete(client);
    if (bucket === undefined || bucket.perMinute !== perMinute) {
      if (this.buckets.size >= this.maxTracked) this.prune(now);
      bucket = { tokens: perMinute, at: now, perMinute };
    }
    this.buckets.set(client, bucket);
    const perMs = perMinute / 60_000;
    bucket.tokens = Math.min(perMinute, bucket.tokens + (now - bucket.at) * perMs);
    bucket.at = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));
  }

  /** Clients tracked now (tests, metrics). */
  get tracked(): number {
    return this.buckets.size;
  }

  /**
   * Drops up to PRUNE_PER_NEW_CLIENT least recently used buckets that are full again (a
   * client that would start afresh anyway), stopping at the first one still in use: O(1) per
   * new client. When every tracked client is in use, the map grows past maxTracked.
   */
  private prune(now: number): void {
    for (let i = 0; i < PRUNE_PER_NEW_CLIENT; i++) {
      const oldest = this.buckets.entries().next();
      if (oldest.done === true) return;
      const [client, b] = oldest.value;
      if (b.tokens + (now - b.at) * (b.perMinute / 60_000) < b.perMinute) return;
      this.buckets.delete(client);
    }
  }
}
