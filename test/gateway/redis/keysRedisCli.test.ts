// `shardkit keys ... --redis URL` as a real process against a real redis-server: the same
// actions as with the keys file, Redis holds hashes only, a running gate sees each change.
// Each CLI run starts Node with tsx (seconds on a loaded machine): the tests get long timeouts.

import { spawn } from "node:child_process";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisAccessGate } from "../../../src/gateway/redis/RedisAccessGate.js";
import { hashApiKey } from "../../../src/server/http/keyRing.js";
import { startRedisServer, type RedisServer } from "../../support/redisServer.js";

const cli = join(import.meta.dirname, "..", "..", "..", "src", "cli", "main.ts");

function run(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; last: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", cli, "keys", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.once("exit", (code) => resolve({ code, stdout, stderr, last: stdout.trimEnd().split("\n").at(-1)! }));
  });
}

const fakeRequest = (key: string) => ({ headers: { authorization: `Bearer ${key}` }, socket: { remoteAddress: "127.0.0.1" } }) as never;

describe("shardkit keys --redis", () => {
  let redis: RedisServer;
  let admin: Redis;
  let gate: RedisAccessGate;

  beforeAll(async () => {
    redis = await startRedisServer();
    admin = new Redis(redis.url);
    gate = await RedisAccessGate.connect(redis.url, { pollMs: 60_000 });
  });

  afterAll(async () => {
    await gate?.close();
    admin?.disconnect();
    await redis?.close();
  });

  it("adds, lists, rotates and revokes; Redis holds hashes only; a running gate follows", async () => {
    const added = await run("add", "--redis", redis.url, "--name", "web", "--browser", "--origin", "https://app.example.com", "--rate", "120");
    expect(added.code, added.stderr).toBe(0);
    const key = added.last;
    expect(key).toMatch(/^shk_[A-Za-z0-9_-]{43}$/);
    expect(JSON.parse((await admin.hget("shardkit:keys", "web"))!)).toEqual({
      name: "web",
      sha256: hashApiKey(key),
      kind: "browser",
      origins: ["https://app.example.com"],
      ratePerMinute: 120,
    });
    expect(await admin.get("shardkit:keys:version")).toBe("1");
    // The CLI process exits right after publishing; the gate has it by then or very soon.
    await expect.poll(() => gate.currentKeys().lookup(key)?.name, { timeout: 1000, interval: 10 }).toBe("web");

    const listed = await run("list", "--redis", redis.url);
    expect(listed.stdout).toContain("web  browser  rate 120/min  origins https://app.example.com");
    expect(listed.stdout).not.toContain(key);

    const rotated = await run("rotate", "--redis", redis.url, "--name", "web");
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(rotated.last).not.toBe(key);
    expect(JSON.parse((await admin.hget("shardkit:keys", "web"))!).sha256).toBe(hashApiKey(rotated.last));
    await expect.poll(() => gate.currentKeys().lookup(rotated.last)?.name, { timeout: 1000, interval: 10 }).toBe("web");
    expect(gate.check(fakeRequest(key), new URL("http://g/"))).toEqual({ kind: "unknown-key" });

    expect((await run("revoke", "--redis", redis.url, "--name", "web")).code).toBe(0);
    expect(await admin.hlen("shardkit:keys")).toBe(0);
    await expect.poll(() => gate.currentKeys().lookup(rotated.last), { timeout: 1000, interval: 10 }).toBeUndefined();
    expect((await run("list", "--redis", redis.url)).stdout).toMatch(/no keys in Redis redis:\/\/127\.0\.0\.1/);
  }, 120_000);

  it("refuses a second key of the same name and unknown names with exit code 1", async () => {
    expect((await run("add", "--redis", redis.url, "--name", "ci")).code).toBe(0);
    const again = await run("add", "--redis", redis.url, "--name", "ci");
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/a key named "ci" already exists in Redis/);
    const ghost = await run("rotate", "--redis", redis.url, "--name", "ghost");
    expect(ghost.code).toBe(1);
    expect(ghost.stderr).toMatch(/no key named "ghost" in Redis/);
  }, 60_000);

  it("says clearly when Redis is unreachable or the flags conflict", async () => {
    const away = await startRedisServer();
    const url = away.url;
    await away.close();
    const started = Date.now();
    const down = await run("list", "--redis", url);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+/);
    // No reconnect loop: the refusal ends the command (the time is mostly Node and tsx starting).
    expect(Date.now() - started).toBeLessThan(30_000);
    const both = await run("list", "--redis", url, "--file", "/tmp/shardkit-k.json");
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/--file F or --redis URL, not both/);
    const bad = await run("list", "--redis", "http://localhost:6379");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--redis must use redis:\/\//);
  }, 60_000);
});
