/**
 * Cost of the gateway's global rate-cap check per request (`npm run bench -- --only=ratecap`,
 * or `node --import tsx bench/rateCap.ts [--quick]`), against a throwaway redis-server on
 * 127.0.0.1 (TCP, as `--redis redis://...` connects) in the same run:
 * - the shared cap: one EVALSHA of the token-bucket script (RedisRateCap.take);
 * - a bare Redis PING round trip on the same connection (the floor any Redis check pays);
 * - the in-process RateLimiter of `serve` (no network);
 * - the whole access check with a capped key: RedisAccessGate.check vs AccessControl.check.
 * Each: serial latency (p50/p99), the gateway process's CPU per check, and checks per second
 * with 64 in flight (Redis paths). Rounds of the variants alternate.
 */
import type { IncomingMessage } from "node:http";
import { Redis } from "ioredis";
import { RedisAccessGate } from "../src/gateway/redis/RedisAccessGate.js";
import { RedisKeyStore } from "../src/gateway/redis/RedisKeyStore.js";
import { RedisRateCap } from "../src/gateway/redis/RedisRateCap.js";
import { AccessControl } from "../src/server/http/AccessControl.js";
import { hashApiKey, KeyRing } from "../src/server/http/keyRing.js";
import { RateLimiter } from "../src/server/http/RateLimiter.js";
import { startRedisServer } from "../test/support/redisServer.js";

/** Large enough that no check is refused: the bench measures the cost of allowing. */
const CAP = 1_000_000_000;

interface Figures {
  samplesUs: number[];
  cpuUsPerCheck: number;
  inFlightPerSecond: number | undefined;
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

async function measure(check: () => unknown, serial: number, inFlight: boolean): Promise<Figures> {
  for (let i = 0; i < 200; i++) await check(); // warm up (connection, script cache, JIT)
  const samplesUs: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < serial; i++) {
    const t0 = performance.now();
    await check();
    samplesUs.push((performance.now() - t0) * 1000);
  }
  const cpu = process.cpuUsage(cpu0);
  let inFlightPerSecond: number | undefined;
  if (inFlight) {
    const total = serial * 4;
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        while (next++ < total) await check();
      }),
    );
    inFlightPerSecond = total / ((performance.now() - t0) / 1000);
  }
  return { samplesUs, cpuUsPerCheck: (cpu.user + cpu.system) / serial, inFlightPerSecond };
}

export async function rateCapCost(options: { quick: boolean }): Promise<void> {
  const serial = options.quick ? 2_000 : 10_000;
  const rounds = options.quick ? 1 : 3;
  // Redis on core 0 as the other benches' servers; this process (the gateway's side) on core 1.
  const redis = await startRedisServer({ cpu: 0 });
  const client = new Redis(redis.url, { enableOfflineQueue: true });
  const admin = new Redis(redis.url);
  const key = "shk_bench-key";
  await new RedisKeyStore(admin).add({ name: "bench", sha256: hashApiKey(key), kind: "server", origins: [], ratePerMinute: CAP });
  const gate = await RedisAccessGate.connect(redis.url);
  const ring = new KeyRing([{ name: "bench", sha256: hashApiKey(key), kind: "server", origins: [], ratePerMinute: CAP }]);
  const local = new AccessControl(() => ring);
  const rateCap = new RedisRateCap(client);
  const limiter = new RateLimiter();
  const req = { headers: { authorization: `Bearer ${key}` }, socket: { remoteAddress: "127.0.0.1" } } as unknown as IncomingMessage;
  const url = new URL("http://gateway/");

  const variants: Record<string, { check: () => unknown; inFlight: boolean }> = {
    "Redis EVALSHA token bucket": { check: () => rateCap.take("key:bench", CAP), inFlight: true },
    "Redis PING (baseline)": { check: () => client.ping(), inFlight: true },
    "in-process RateLimiter": { check: () => limiter.take("key:bench", CAP), inFlight: false },
    "RedisAccessGate.check, capped key": { check: () => gate.check(req, url), inFlight: true },
    "AccessControl.check, capped key": { check: () => local.check(req, url), inFlight: false },
  };
  const results = new Map<string, Figures[]>();
  try {
    for (let round = 0; round < rounds; round++) {
      for (const [name, variant] of Object.entries(variants)) {
        const list = results.get(name) ?? [];
        list.push(await measure(variant.check, serial, variant.inFlight));
        results.set(name, list);
      }
    }
  } finally {
    await gate.close();
    client.disconnect();
    admin.disconnect();
    await redis.close();
  }

  const summary = (name: string) => {
    const figures = results.get(name)!;
    const sorted = figures.flatMap((f) => f.samplesUs).sort((a, b) => a - b);
    const cpu = figures.map((f) => f.cpuUsPerCheck).sort((a, b) => a - b)[figures.length >> 1]!;
    const rates = figures.flatMap((f) => (f.inFlightPerSecond === undefined ? [] : [f.inFlightPerSecond])).sort((a, b) => a - b);
    return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), cpu, inFlight: rates[rates.length >> 1] };
  };
  const fmt = (us: number) => (us >= 10 ? us.toFixed(0) : us.toFixed(2));
  console.log(`(ratecap) global rate-cap check per request, redis-server ${redis.url.replace(/:\d+$/, ":PORT")} (TCP), ${rounds}x${serial} serial checks each`);
  for (const name of Object.keys(variants)) {
    const s = summary(name);
    const inFlight = s.inFlight === undefined ? "" : `, 64 in flight ${Math.round(s.inFlight)}/s`;
    console.log(`    ${name.padEnd(36)} p50 ${fmt(s.p50)} µs, p99 ${fmt(s.p99)} µs, gateway CPU ${fmt(s.cpu)} µs/check${inFlight}`);
  }
  const evalsha = summary("Redis EVALSHA token bucket");
  const ping = summary("Redis PING (baseline)");
  console.log(
    `    EVALSHA over PING: p50 +${fmt(evalsha.p50 - ping.p50)} µs (ratio ${(evalsha.p50 / ping.p50).toFixed(2)}), 64-in-flight throughput ratio ${(evalsha.inFlight! / ping.inFlight!).toFixed(2)}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  rateCapCost({ quick: process.argv.includes("--quick") }).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
