// What an operator sees when a shared store goes down under traffic (issue 34, items 1 and 2):
// a real `shardkit gateway --index --postgres --redis --log-level warn` process in front of an
// in-process `serve`, with a real PostgreSQL and a real Redis. Each store is stopped while
// requests keep coming, then started again:
// - /health and /status keep answering 200 with the truth (index unavailable and why, Redis
//   down and why), so a load balancer keeps the instance, and its JSON-RPC, in rotation;
// - REST /v1 answers 503 (text/plain, Retry-After) while the index database is down, and 200
//   again once it is back, without a restart;
// - JSON-RPC keeps answering throughout;
// - each outage is one `warn` line when it starts and one when it ends, visible at --log-level warn.

import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateRestResponse } from "../../generated/rest/validators.js";
import { RedisKeyStore } from "../../src/gateway/redis/RedisKeyStore.js";
import { hashApiKey } from "../../src/server/http/keyRing.js";
import { startService, type Service } from "../../src/server/startService.js";
import { stop, waitFor, type CliProcess } from "../cli/cliProcess.js";
import { startPostgres, type PostgresServer } from "../support/postgresServer.js";
import { startRedisServer, type RedisServer } from "../support/redisServer.js";
import { postRpc, rpcBody, startGatewayProcess, type GatewayUrls } from "./gatewayProcess.js";

let postgres: PostgresServer;
let redis: RedisServer;
let upstream: Service;
let gateway: CliProcess & GatewayUrls;
let metricsUrl: string;

beforeAll(async () => {
  [postgres, redis, upstream] = await Promise.all([
    startPostgres(),
    startRedisServer(),
    startService({ host: "127.0.0.1", rpcPort: 0, archivalPort: 0, retention: 100, chain: { blockTimeMs: 0 } }),
  ]);
  gateway = await startGatewayProcess([
    "--upstream",
    upstream.rpcUrl,
    "--redis",
    redis.url,
    "--index",
    "--postgres",
    postgres.url,
    "--probe-interval",
    "200",
    "--log-level",
    "warn",
    "--metrics-port",
    "0",
  ]);
  metricsUrl = (await waitFor(() => gateway.output().stdout, /metrics\s+(http:\/\/\S+)/))[1]!;
}, 60_000);

/** One unlabelled gauge of the gateway's /metrics. */
async function gauge(name: string): Promise<number | undefined> {
  const text = await (await fetch(metricsUrl)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

afterAll(async () => {
  if (gateway) await stop(gateway);
  await upstream?.close();
  await redis?.close();
  postgres?.destroy();
});

interface LogLine {
  level: string;
  msg: string;
  message?: string;
}

/** The gateway's JSON log lines (stdout is not a terminal); the listener banner is plain text. */
function logLines(): LogLine[] {
  return gateway
    .output()
    .stdout.split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);
}
const text = (line: LogLine) => `${line.msg}${line.message === undefined ? "" : ` ${line.message}`}`;
const matching = (pattern: RegExp) => logLines().filter((line) => pattern.test(text(line)));

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}; gateway output:\n${gateway.output().stdout}\n${gateway.output().stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function getJson(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${gateway.apiUrl}${path}`, { headers });
  const type = response.headers.get("content-type") ?? "";
  return { status: response.status, body: type.startsWith("application/json") ? await response.json() : await response.text(), headers: response.headers };
}

/** JSON-RPC `status` through the gateway: it must answer whatever store is down. */
async function rpcAnswers(): Promise<boolean> {
  const reply = await postRpc(gateway.rpcUrl, rpcBody("status", []));
  return reply.status === 200 && (JSON.parse(reply.text) as { result?: unknown }).result !== undefined;
}

/** Requests of every kind, in a loop, while a store goes down and comes back (none may crash the gateway). */
function traffic(): { stop(): Promise<{ rpcFailures: number; healthNot200: number; requests: number }> } {
  let running = true;
  const counts = { rpcFailures: 0, healthNot200: 0, requests: 0 };
  const loop = (async () => {
    while (running) {
      const [rpcOk, health] = await Promise.all([
        rpcAnswers().catch(() => false),
        fetch(`${gateway.apiUrl}/health`).then((r) => (r.body?.cancel(), r.status)),
        fetch(`${gateway.apiUrl}/v1/account/test.near/full`).then((r) => r.body?.cancel()),
      ]);
      counts.requests++;
      if (!rpcOk) counts.rpcFailures++;
      if (health !== 200) counts.healthNot200++;
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return counts;
    },
  };
}

describe("gateway outages of PostgreSQL and Redis", () => {
  it("starts healthy, with nothing logged at warn", async () => {
    const full = await until("/v1 from the index", async () => {
      const reply = await getJson("/v1/account/test.near/full");
      return reply.status === 200 ? reply : undefined;
    });
    expect(full.body.account_id).toBe("test.near");
    const health = await getJson("/health");
    expect(health.status).toBe(200);
    expect(health.body.status).toBe("ok");
    expect(health.body.gateway.index).toMatchObject({ available: true, last_error: null });
    expect(health.body.gateway.redis).toEqual({ url: expect.stringMatching(/^redis:\/\/127\.0\.0\.1:\d+/), up: true, last_error: null });
    expect(validateRestResponse("health", 200, health.body)).toEqual([]);
    expect(logLines()).toEqual([]);
  });

  it("PostgreSQL stopped under traffic: /health and /status 200 with the reason, /v1 503, JSON-RPC answers; back without a restart", async () => {
    const load = traffic();
    postgres.stop({ immediate: true });

    const down = await until("/health to report the index unavailable", async () => {
      const reply = await getJson("/health");
      return reply.body.status === "IndexUnavailable" ? reply : undefined;
    });
    expect(down.status).toBe(200);
    expect(down.body.block_height).toBe(upstream.chain.head().height);
    expect(down.body.gateway.index).toMatchObject({ available: false, last_error: expect.stringMatching(/ECONNREFUSED|terminat|closed/i), lag_blocks: null });
    expect(validateRestResponse("health", 200, down.body)).toEqual([]);

    const status = await getJson("/status");
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ block_height: upstream.chain.head().height, sync_block_height: null, sync_latency_sec: null });
    expect(status.body.gateway.index.available).toBe(false);
    expect(validateRestResponse("status", 200, status.body)).toEqual([]);

    const v1 = await getJson("/v1/account/test.near/full");
    expect(v1.status).toBe(503);
    expect(v1.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(v1.headers.get("retry-after")).toBe("2");
    expect(v1.body).toMatch(/account index is unavailable/);
    expect(await rpcAnswers()).toBe(true);
    expect(await gauge("shardkit_index_available")).toBe(0);

    // One warn line for the outage, however many requests failed meanwhile.
    await until("the outage's warn line", async () => (matching(/index: PostgreSQL at \S+ unreachable/).length > 0 ? true : undefined));
    await until("more traffic during the outage", async () => ((await getJson("/health")).body.status === "IndexUnavailable" ? true : undefined));

    postgres.start();
    await until("/v1 to answer again", async () => ((await getJson("/v1/account/test.near/full")).status === 200 ? true : undefined));
    const healthy = await until("/health ok again", async () => {
      const reply = await getJson("/health");
      return reply.body.status === "ok" && reply.body.gateway.index.available === true ? reply : undefined;
    });
    expect(healthy.body.gateway.index.last_error).toEqual(expect.any(String));
    expect(await gauge("shardkit_index_available")).toBe(1);
    await until("the recovery's warn line", async () => (matching(/index: PostgreSQL at \S+ is back/).length > 0 ? true : undefined));
    const counts = await load.stop();

    expect(counts.requests).toBeGreaterThan(3);
    expect(counts.healthNot200).toBe(0);
    expect(counts.rpcFailures).toBe(0);
    const unreachable = matching(/index: PostgreSQL at \S+ unreachable/);
    expect(unreachable, JSON.stringify(logLines(), null, 1)).toHaveLength(1);
    expect(unreachable[0]!.level).toBe("warn");
    expect(unreachable[0]!.msg).not.toMatch(/password/);
    const back = matching(/index: PostgreSQL at \S+ is back/);
    expect(back, JSON.stringify(logLines(), null, 1)).toHaveLength(1);
    expect(back[0]!.level).toBe("warn");
    // The leader lost its lock with its session; taking it again ends that state, also at warn.
    await until("leadership again", async () => (matching(/index: leader again/).length > 0 ? true : undefined));
    expect(matching(/lost the leader lock/).map((line) => line.level)).toEqual(["warn"]);
    expect(matching(/index: leader again/).map((line) => line.level)).toEqual(["warn"]);
    expect(gateway.child.exitCode).toBeNull();
  }, 90_000);

  it("Redis stopped under traffic: keyed JSON-RPC keeps answering, /health says Redis is down; back empty, that is a warn too", async () => {
    const client = new Redis(redis.url, { lazyConnect: true });
    await client.connect();
    const apiKey = "ops-test-key-0123456789abcdef";
    try {
      await new RedisKeyStore(client).add({ name: "ops", sha256: hashApiKey(apiKey), kind: "server", origins: [], ratePerMinute: 1000 });
    } finally {
      client.disconnect();
    }
    const keyed = () => postRpc(gateway.rpcUrl, rpcBody("status", []), { authorization: `Bearer ${apiKey}` });
    await until("the key on the gateway", async () => ((await keyed()).status === 200 ? true : undefined));
    const before = logLines().length;

    const load = traffic();
    await redis.stop();
    const down = await until("/health to report Redis down", async () => {
      const reply = await getJson("/health");
      return reply.body.gateway.redis.up === false ? reply : undefined;
    });
    expect(down.status).toBe(200);
    expect(down.body.status).toBe("ok");
    expect(down.body.gateway.redis.last_error).toEqual(expect.any(String));
    expect(validateRestResponse("health", 200, down.body)).toEqual([]);
    expect(await gauge("shardkit_redis_up")).toBe(0);
    // The known key keeps working from memory while Redis is away.
    expect((await keyed()).status).toBe(200);

    // Back without its data (no persistence): every key is gone.
    await redis.restart();
    await until("/health to report Redis up", async () => ((await getJson("/health")).body.gateway.redis.up === true ? true : undefined));
    await until("the empty reload's warn line", async () => (matching(/Redis keys reloaded: 0 keys/).length > 0 ? true : undefined));
    const counts = await load.stop();
    expect(counts.healthNot200).toBe(0);
    expect(counts.rpcFailures).toBe(0);
    expect((await keyed()).status).toBe(403);
    expect(await gauge("shardkit_redis_up")).toBe(1);

    const lines = logLines().slice(before);
    const unreachable = lines.filter((line) => /Redis at \S+ unreachable/.test(text(line)));
    const back = lines.filter((line) => /Redis at \S+ is back/.test(text(line)));
    const empty = lines.filter((line) => /Redis keys reloaded: 0 keys/.test(text(line)));
    expect(unreachable.map((line) => line.level)).toEqual(["warn"]);
    expect(back.map((line) => line.level)).toEqual(["warn"]);
    expect(empty.map((line) => line.level)).toEqual(["warn"]);
    expect(gateway.child.exitCode).toBeNull();
  }, 90_000);
});
