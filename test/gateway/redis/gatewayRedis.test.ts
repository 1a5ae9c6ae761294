// Issue 10 with real processes: one upstream `shardkit serve --ephemeral`, three
// `shardkit gateway --redis URL` instances and one redis-server. Keys are managed with
// `shardkit keys ... --redis URL` as an operator would. Proves: answers through any instance match
// the upstream's; a key capped at N per minute gets N in total across the three; a rotation
// reaches all three within a second; Redis restarted mid-run, the gateways recover without a
// restart of their own.

import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { blockRunners, docBlock } from "../../readme/codeBlocks.js";
import { repoRoot, runCli, startServe, stop, waitFor, type CliProcess, type ServeUrls } from "../../cli/cliProcess.js";
import { gatewayFlagSpecs, gatewayOptionsFrom } from "../../../src/cli/gatewayCommand.js";
import { parseFlags } from "../../../src/cli/flags.js";
import { hashApiKey } from "../../../src/server/http/keyRing.js";
import { startRedisServer, type RedisServer } from "../../support/redisServer.js";

interface GatewayProcess extends CliProcess {
  rpcUrl: string;
}

async function startGatewayProcess(upstream: string, redisUrl: string): Promise<GatewayProcess> {
  const proc = runCli(["gateway", "--upstream", upstream, "--rpc-port", "0", "--archival-port", "0", "--api-port", "0", "--redis", redisUrl]);
  try {
    const [, rpcUrl] = await waitFor(() => proc.output().stdout, /regular RPC\s+(http:\/\/\S+)/, 60_000);
    return { ...proc, rpcUrl: rpcUrl! };
  } catch (error) {
    proc.child.kill("SIGKILL");
    throw new Error(`${(error as Error).message}\nstderr:\n${proc.output().stderr}`);
  }
}

async function keys(...args: string[]): Promise<string> {
  const proc = runCli(["keys", ...args]);
  const code = await proc.exited;
  const { stdout, stderr } = proc.output();
  if (code !== 0) throw new Error(`shardkit keys ${args.join(" ")} exited ${code}: ${stderr}`);
  return stdout.trimEnd().split("\n").at(-1)!;
}

const VIEW_ACCOUNT = { jsonrpc: "2.0", id: 1, method: "query", params: { request_type: "view_account", finality: "final", account_id: "test.near" } };
const STATUS = { jsonrpc: "2.0", id: 1, method: "status", params: [] };

async function rpc(url: string, body: unknown, key?: string): Promise<{ status: number; retryAfter: string | null; body: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key !== undefined && { authorization: `Bearer ${key}` }) },
    body: JSON.stringify(body),
  });
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.text() };
}

async function within(ms: number, condition: () => Promise<boolean>, what: string): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (await condition()) return;
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("three gateway processes sharing keys and rate caps in Redis", () => {
  let redis: RedisServer;
  let upstream: CliProcess & ServeUrls;
  let gateways: GatewayProcess[] = [];
  let unlimitedKey: string;
  let admin: Redis;

  /** Waits until every instance knows `key` (the probes take tokens), then refills its bucket. */
  const knownEverywhere = async (key: string): Promise<void> => {
    await within(1000, async () => (await Promise.all(gateways.map((g) => rpc(g.rpcUrl, STATUS, key)))).every((r) => r.status !== 403), "key on all");
    await admin.del(`shardkit:rate:key:${hashApiKey(key)}`);
  };

  beforeAll(async () => {
    redis = await startRedisServer();
    admin = new Redis(redis.url);
    admin.on("error", () => {});
    upstream = await startServe();
    unlimitedKey = await keys("add", "--redis", redis.url, "--name", "ops");
    gateways = await Promise.all([1, 2, 3].map(() => startGatewayProcess(upstream.rpcUrl, redis.url)));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(gateways.map((g) => stop(g)));
    if (upstream !== undefined) await stop(upstream);
    admin?.disconnect();
    await redis?.close();
  });

  it("answers through every instance as the upstream does", async () => {
    // Pinned to one final block: the upstream keeps producing blocks between the direct read and
    // the gateway reads, and a `finality` read would answer at whichever block is final then.
    const final = JSON.parse((await rpc(upstream.rpcUrl, { jsonrpc: "2.0", id: 1, method: "block", params: { finality: "final" } })).body).result.header;
    const atBlock = { ...VIEW_ACCOUNT, params: { request_type: "view_account", block_id: final.hash, account_id: "test.near" } };
    const direct = await rpc(upstream.rpcUrl, atBlock);
    expect(JSON.parse(direct.body).result.amount).toMatch(/^\d+$/);
    expect(JSON.parse(direct.body).result.block_height).toBe(final.height);
    for (const g of gateways) {
      const through = await rpc(g.rpcUrl, atBlock, unlimitedKey);
      expect(through.status).toBe(200);
      expect(JSON.parse(through.body)).toEqual(JSON.parse(direct.body));
    }
    expect((await rpc(gateways[0]!.rpcUrl, STATUS, "shk_not-a-key")).status).toBe(403);
  });

  it("a key capped at 9 per minute gets 9 requests in total across the three instances", async () => {
    const capped = await keys("add", "--redis", redis.url, "--name", "capped", "--rate", "9");
    await knownEverywhere(capped);
    const results = await Promise.all(Array.from({ length: 27 }, (_, n) => rpc(gateways[n % 3]!.rpcUrl, STATUS, capped)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(9);
    const limited = results.filter((r) => r.status === 429);
    expect(limited).toHaveLength(18);
    for (const r of limited) {
      expect(r.body).toBe('{"error":"rate_limited"}');
      // 9 per minute: the next token within 7 s.
      expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(r.retryAfter)).toBeLessThanOrEqual(7);
    }
    // Every instance took part in both outcomes' counting: each one refuses now.
    for (const g of gateways) expect((await rpc(g.rpcUrl, STATUS, capped)).status).toBe(429);
  }, 60_000);

  it("a rotation with `shardkit keys rotate --redis` reaches all three within a second", async () => {
    const old = await keys("add", "--redis", redis.url, "--name", "app");
    await within(1000, async () => (await Promise.all(gateways.map((g) => rpc(g.rpcUrl, STATUS, old)))).every((r) => r.status === 200), "added key on all");
    const fresh = await keys("rotate", "--redis", redis.url, "--name", "app");
    await within(
      1000,
      async () => {
        const [olds, news] = await Promise.all([Promise.all(gateways.map((g) => rpc(g.rpcUrl, STATUS, old))), Promise.all(gateways.map((g) => rpc(g.rpcUrl, STATUS, fresh)))]);
        return olds.every((r) => r.status === 403) && news.every((r) => r.status === 200);
      },
      "rotation seen by all three",
    );
  }, 90_000);

  it("the deployment guide's Redis block runs as written (with this test's Redis and upstream)", async () => {
    const block = docBlock(blockRunners.redisKeys.claims);
    const code = block.code.replaceAll("redis://10.0.0.5:6379", redis.url).replaceAll("http://rpc-1:3030", upstream.rpcUrl);
    const lines = code.split("\n").map((line) => line.replace(/#.*/, "").trim()).filter((line) => line !== "");
    const commands = lines.map((line) => line.split(/\s+/).slice(1));
    expect(commands.map((c) => c[0])).toEqual(["keys", "keys", "gateway"]);
    let key = "";
    for (const args of commands.slice(0, 2)) key = await keys(...args.slice(1));
    expect(key).toMatch(/^shk_/);
    const proc = runCli([...commands[2]!, "--rpc-port", "0", "--archival-port", "0", "--api-port", "0"]);
    try {
      const [, url] = await waitFor(() => proc.output().stdout, /regular RPC\s+(http:\/\/\S+)/, 60_000);
      // The rotated key of the block works on it, with the block's cap.
      expect((await rpc(url!, STATUS, key)).status).toBe(200);
    } finally {
      await stop(proc);
    }
  }, 120_000);

  it("recovers from a Redis restart mid-run without restarting the gateways", async () => {
    await redis.stop({ keepData: true });
    // Down: known keys are served from memory, the answer comes at once.
    for (const g of gateways) expect((await rpc(g.rpcUrl, STATUS, unlimitedKey)).status).toBe(200);
    for (const g of gateways) await waitFor(() => g.output().stdout, /Redis at redis:\/\/127\.0\.0\.1:\d+\/? unreachable/, 10_000);

    await redis.restart({ keepData: true });
    for (const g of gateways) await waitFor(() => g.output().stdout, /Redis at \S+ is back/, 15_000);
    // Re-subscribed and sharing caps again: a new capped key, 6 in total across the three.
    const capped = await keys("add", "--redis", redis.url, "--name", "after-restart", "--rate", "6");
    await knownEverywhere(capped);
    const results = await Promise.all(Array.from({ length: 18 }, (_, n) => rpc(gateways[n % 3]!.rpcUrl, STATUS, capped)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(6);
    const fresh = await keys("rotate", "--redis", redis.url, "--name", "ops");
    await within(1000, async () => (await Promise.all(gateways.map((g) => rpc(g.rpcUrl, STATUS, fresh)))).every((r) => r.status === 200), "rotation after restart");
    for (const g of gateways) expect((await rpc(g.rpcUrl, STATUS, unlimitedKey)).status).toBe(403);
    for (const g of gateways) expect(g.child.exitCode).toBeNull();
  }, 120_000);
});

describe("shardkit gateway --redis flags", () => {
  const options = (...args: string[]) => gatewayOptionsFrom(parseFlags("gateway", ["--upstream", "http://127.0.0.1:3030", ...args], gatewayFlagSpecs).values);

  it("takes a redis:// URL or a socket path, and refuses --keys with it", () => {
    expect(options("--redis", "redis://127.0.0.1:6379").redisUrl).toBe("redis://127.0.0.1:6379");
    expect(options("--redis", "/tmp/redis.sock").redisUrl).toBe("/tmp/redis.sock");
    expect(() => options("--redis", "redis://127.0.0.1:6379", "--keys", "k.json")).toThrow(/--keys FILE or --redis URL, not both/);
    expect(() => options("--redis", "http://127.0.0.1:6379")).toThrow(/--redis must be a redis:\/\/host:port URL/);
  });
});
