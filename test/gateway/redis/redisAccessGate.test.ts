// RedisAccessGate in process: several gates on their own connections stand for several gateway
// instances sharing one real redis-server. Each gate answers over real HTTP (a small listener
// that turns its decision into the status the gateway answers), so requests carry real headers
// and peer addresses.

import { createServer, type Server } from "node:http";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newApiKey } from "../../../src/cli/keysCommand.js";
import { RedisAccessGate } from "../../../src/gateway/redis/RedisAccessGate.js";
import { RedisKeyStore } from "../../../src/gateway/redis/RedisKeyStore.js";
import { hashApiKey, type StoredKey } from "../../../src/server/http/keyRing.js";
import { startRedisServer, type RedisServer } from "../../support/redisServer.js";

interface Instance {
  gate: RedisAccessGate;
  server: Server;
  url: string;
  reports: string[];
}

async function startInstance(redisUrl: string, pollMs = 60_000): Promise<Instance> {
  const reports: string[] = [];
  // A long poll: the tests below prove the pub/sub path, not the safety-net poll.
  const gate = await RedisAccessGate.connect(redisUrl, { onReport: (m) => reports.push(m), pollMs, publicRatePerMinute: 5 });
  const server = createServer((req, res) => {
    void Promise.resolve(gate.check(req, new URL(req.url ?? "/", "http://gateway"))).then((decision) => {
      const status = decision.kind === "allow" ? 200 : decision.kind === "rate-limited" ? 429 : 403;
      res.writeHead(status, { "content-type": "application/json", ...(decision.kind === "rate-limited" && { "retry-after": String(decision.retryAfterSec) }) });
      res.end(JSON.stringify(decision));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("no address");
  return { gate, server, url: `http://127.0.0.1:${address.port}`, reports };
}

async function get(instance: Instance, key?: string, origin?: string): Promise<{ status: number; retryAfter: string | null }> {
  const headers: Record<string, string> = {};
  if (key !== undefined) headers.authorization = `Bearer ${key}`;
  if (origin !== undefined) headers.origin = origin;
  const response = await fetch(`${instance.url}/`, { headers });
  await response.arrayBuffer();
  return { status: response.status, retryAfter: response.headers.get("retry-after") };
}

async function within(ms: number, condition: () => Promise<boolean>, what: string): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await condition()) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function entry(name: string, key: string, extra: Partial<StoredKey> = {}): StoredKey {
  return { name, sha256: hashApiKey(key), kind: "server", origins: [], ratePerMinute: null, ...extra };
}

describe("RedisAccessGate across instances", () => {
  let redis: RedisServer;
  let admin: Redis;
  let store: RedisKeyStore;
  let instances: Instance[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    admin = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    admin.on("error", () => {});
    store = new RedisKeyStore(admin);
    instances = await Promise.all([1, 2, 3].map(() => startInstance(redis.url)));
  });

  /** Redis' clock in ms (TIME), the clock the rate script refills by. */
  const redisNowMs = async (): Promise<number> => {
    const [seconds, micros] = await admin.time();
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  };

  afterAll(async () => {
    for (const i of instances) {
      i.server.close();
      await i.gate.close();
    }
    admin?.disconnect();
    await redis?.close();
  });

  it("a key capped at N per minute gets N in total across three instances, then 429 with Retry-After", async () => {
    const key = newApiKey();
    await store.add(entry("capped", key, { ratePerMinute: 12 }));
    await within(1000, async () => (await Promise.all(instances.map((i) => get(i, key)))).every((r) => r.status !== 403), "the key reaches every instance");
    // The probe above took one token per instance; start from a full bucket again.
    await admin.del(`shardkit:rate:key:${hashApiKey(key)}`);
    const results = await Promise.all(Array.from({ length: 36 }, (_, n) => get(instances[n % 3]!, key)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(12);
    const limited = results.filter((r) => r.status === 429);
    expect(limited).toHaveLength(24);
    // 12 per minute refills one token every 5 s.
    for (const r of limited) expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1), expect(Number(r.retryAfter)).toBeLessThanOrEqual(5);
  });

  it("refills at N/60 per second like the in-process token bucket", async () => {
    const key = newApiKey();
    const bucket = `shardkit:rate:key:${hashApiKey(key)}`;
    await store.add(entry("refill", key, { ratePerMinute: 120 }));
    await within(1000, async () => (await Promise.all(instances.map((i) => get(i, key)))).every((r) => r.status === 200), "the key reaches every instance");
    // Every bound below comes from Redis' own clock (the one the script uses), read around the
    // requests: a slow machine widens the window it measured, never the rule.
    await admin.del(bucket);
    const burstStart = await redisNowMs();
    const burst = await Promise.all(Array.from({ length: 125 }, (_, n) => get(instances[n % 3]!, key)));
    const burstMs = (await redisNowMs()) - burstStart;
    const burstOk = burst.filter((r) => r.status === 200).length;
    // A full bucket passes a burst of 120, plus at most the 2 per second refilled while it ran.
    expect(burstOk).toBeGreaterThanOrEqual(120);
    expect(burstOk).toBeLessThanOrEqual(Math.min(125, 120 + Math.floor(burstMs / 500)));

    // Refill from a known state: an empty bucket last touched 2 s ago (Redis time) holds 4 tokens.
    const at = await redisNowMs();
    await admin.hset(bucket, "tokens", "0", "at", String(at - 2000), "cap", "120");
    const statuses: number[] = [];
    const retryAfters: (string | null)[] = [];
    for (let n = 0; n < 8; n++) {
      const r = await get(instances[n % 3]!, key);
      statuses.push(r.status);
      if (r.status === 429) retryAfters.push(r.retryAfter);
    }
    const spentMs = (await redisNowMs()) - at;
    const allowed = statuses.filter((s) => s === 200).length;
    expect(allowed).toBeGreaterThanOrEqual(4);
    expect(allowed).toBeLessThanOrEqual(4 + Math.floor(spentMs / 500));
    // The first four pass whichever instance asks; a refusal waits less than one 500 ms token.
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
    expect(retryAfters.length).toBe(8 - allowed);
    for (const value of retryAfters) expect(value).toBe("1");
    if (allowed < 8) await within(5000, async () => (await get(instances[2]!, key)).status === 200, "a token refilled");
  });

  it("public requests share one per-address cap across instances", async () => {
    const results: number[] = [];
    for (let n = 0; n < 9; n++) results.push((await get(instances[n % 3]!)).status);
    expect(results.filter((s) => s === 200)).toHaveLength(5);
    expect(results.slice(5)).toEqual([429, 429, 429, 429]);
  });

  it("answers unknown keys and refused origins like AccessControl, without a Redis round trip", async () => {
    const key = newApiKey();
    await store.add(entry("web", key, { kind: "browser", origins: ["https://app.example.com", "*.example.org"] }));
    await within(1000, async () => (await get(instances[1]!, key, "https://app.example.com")).status === 200, "the browser key arrives");
    expect((await get(instances[1]!, key, "https://evil.example.com")).status).toBe(403);
    expect((await get(instances[1]!, key)).status).toBe(403);
    expect((await get(instances[1]!, key, "http://a.example.org")).status).toBe(200);
    expect((await get(instances[1]!, "shk_not-a-key")).status).toBe(403);
    const gate = instances[0]!.gate;
    const fakeRequest = (headers: Record<string, string>) => ({ headers, socket: { remoteAddress: "127.0.0.1" } }) as never;
    // Uncapped keys and refusals are synchronous: no promise on the hot path.
    expect(gate.check(fakeRequest({ authorization: "Bearer nope" }), new URL("http://g/"))).toEqual({ kind: "unknown-key" });
    expect(gate.check(fakeRequest({ authorization: `Bearer ${key}`, origin: "https://app.example.com" }), new URL("http://g/"))).toEqual({ kind: "allow" });
  });

  it("a rotation or revocation reaches every instance within a second (pub/sub)", async () => {
    const key = newApiKey();
    await store.add(entry("rotating", key));
    await within(1000, async () => (await Promise.all(instances.map((i) => get(i, key)))).every((r) => r.status === 200), "added key on all");
    const fresh = newApiKey();
    await store.rotate("rotating", hashApiKey(fresh));
    await within(
      1000,
      async () => {
        const [olds, news] = await Promise.all([Promise.all(instances.map((i) => get(i, key))), Promise.all(instances.map((i) => get(i, fresh)))]);
        return olds.every((r) => r.status === 403) && news.every((r) => r.status === 200);
      },
      "rotation seen by all three",
    );
    await store.revoke("rotating");
    await within(1000, async () => (await Promise.all(instances.map((i) => get(i, fresh)))).every((r) => r.status === 403), "revocation seen by all three");
  });

  it("stores keys only as hashes: the raw keys appear nowhere in Redis", async () => {
    const key = newApiKey();
    await store.add(entry("secret", key, { ratePerMinute: 100 }));
    await within(1000, async () => (await get(instances[0]!, key)).status === 200, "key arrives");
    let dump = "";
    let cursor = "0";
    do {
      const [next, names] = await admin.scan(cursor, "COUNT", 1000);
      cursor = next;
      for (const name of names) {
        const type = await admin.type(name);
        const value = type === "hash" ? JSON.stringify(await admin.hgetall(name)) : type === "string" ? await admin.get(name) : `(${type})`;
        dump += `${name}=${value}\n`;
      }
    } while (cursor !== "0");
    expect(dump).toContain(hashApiKey(key));
    expect(dump).not.toContain(key);
    expect(dump).not.toContain(key.slice(4));
  });

  it("reloads the rate script after Redis forgets it (NOSCRIPT)", async () => {
    const key = newApiKey();
    await store.add(entry("noscript", key, { ratePerMinute: 1000 }));
    await within(1000, async () => (await get(instances[0]!, key)).status === 200, "key arrives");
    const bucket = `shardkit:rate:key:${hashApiKey(key)}`;
    const [tokensBefore, atBefore] = (await admin.hmget(bucket, "tokens", "at")).map(Number) as [number, number];
    await admin.script("FLUSH");
    expect((await get(instances[0]!, key)).status).toBe(200);
    expect(instances[0]!.gate.shared).toBe(true);
    // The script ran in Redis after the flush: it stamped the bucket later and took one token from
    // what had refilled meanwhile (1000 per minute, by Redis' own clock: no wall-clock bound here).
    const [tokensAfter, atAfter] = (await admin.hmget(bucket, "tokens", "at")).map(Number) as [number, number];
    expect(atAfter).toBeGreaterThan(atBefore);
    expect(tokensAfter).toBeCloseTo(Math.min(1000, tokensBefore + ((atAfter - atBefore) * 1000) / 60_000) - 1, 6);
  });

  it("survives a Redis restart: per-instance caps while it is down, shared caps and key changes after", async () => {
    const key = newApiKey();
    await store.add(entry("restart", key, { ratePerMinute: 6 }));
    await within(1000, async () => (await Promise.all(instances.map((i) => get(i, key)))).every((r) => r.status === 200), "key on all");

    await redis.stop({ keepData: true });
    // Down: answers come at once (no hang), known keys keep working, each instance caps on its own.
    const started = Date.now();
    const down = await Promise.all(instances.map((i) => get(i, key)));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(down.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await get(instances[0]!, "shk_unknown")).status).toBe(403);
    for (let n = 0; n < 6; n++) await get(instances[0]!, key);
    expect((await get(instances[0]!, key)).status).toBe(429);
    expect(instances.every((i) => !i.gate.shared)).toBe(true);
    expect(instances[0]!.reports.join("\n")).toMatch(/unreachable .*per instance/);

    await redis.restart({ keepData: true });
    await within(5000, async () => instances.every((i) => i.gate.shared), "all instances reconnect");
    // Re-subscribed: a rotation after the restart reaches all three.
    const fresh = newApiKey();
    await store.rotate("restart", hashApiKey(fresh));
    await within(
      1000,
      async () => (await Promise.all(instances.map((i) => get(i, fresh)))).every((r) => r.status !== 403),
      "rotation after restart seen by all",
    );
    // Shared again: 6 in total across the three.
    await admin.del(`shardkit:rate:key:${hashApiKey(fresh)}`);
    const results = await Promise.all(Array.from({ length: 12 }, (_, n) => get(instances[n % 3]!, fresh)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(6);
  });

  it("a hung Redis costs a request at most the command timeout, then per-instance caps; it recovers when Redis answers again", async () => {
    const key = newApiKey();
    await store.add(entry("hung", key, { ratePerMinute: 3 }));
    await within(1000, async () => (await get(instances[1]!, key)).status === 200, "key arrives");
    redis.pause();
    try {
      const started = Date.now();
      const answers = await Promise.all(instances.map((i) => get(i, key)));
      // The 250 ms command timeout, not a hang; the local buckets allow the first request.
      expect(Date.now() - started).toBeLessThan(2000);
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(instances.every((i) => !i.gate.shared)).toBe(true);
    } finally {
      redis.resume();
    }
    await within(3000, async () => {
      await Promise.all(instances.map((i) => get(i, key)));
      return instances.every((i) => i.gate.shared);
    }, "shared again once Redis answers");
    expect(instances[1]!.reports.join("\n")).toMatch(/Command timed out[\s\S]*Redis at \S+ is back/);
  });

  it("reloads the keys after Redis comes back empty (a wiped Redis revokes everything)", async () => {
    const key = newApiKey();
    await store.add(entry("wiped", key));
    await within(1000, async () => (await get(instances[2]!, key)).status === 200, "key arrives");
    await redis.restart({ keepData: false });
    await within(5000, async () => (await Promise.all(instances.map((i) => get(i, key)))).every((r) => r.status === 403), "empty keys on all");
  });
});

describe("RedisAccessGate start-up", () => {
  it("fails with a clear error, not a hang, when Redis cannot be reached", async () => {
    const redis = await startRedisServer();
    const url = redis.url;
    await redis.close();
    const started = Date.now();
    await expect(RedisAccessGate.connect(url, { connectTimeoutMs: 1000 })).rejects.toThrow(/cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("closes at once while Redis is away (a gateway shutting down during an outage does not wait)", async () => {
    const redis = await startRedisServer();
    const gate = await RedisAccessGate.connect(redis.url);
    await redis.stop();
    const started = Date.now();
    await gate.close();
    expect(Date.now() - started).toBeLessThan(1000);
    await redis.close();
  });

  it("refuses a URL that is not Redis", async () => {
    await expect(RedisAccessGate.connect("http://127.0.0.1:1")).rejects.toThrow(/redis:\/\//);
  });
});
