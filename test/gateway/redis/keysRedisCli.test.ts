// `shardkit keys ... --redis URL` as a real process against a real redis-server: the same
// actions as with the keys file, Redis holds hashes only, a running gate sees each change.
// Each CLI run starts Node with tsx (seconds on a loaded machine): the tests get long timeouts.

import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keysCommand } from "../../../src/cli/keysCommand.js";
import { RedisAccessGate } from "../../../src/gateway/redis/RedisAccessGate.js";
import { hashApiKey } from "../../../src/server/http/keyRing.js";
import { startRedisServer, type RedisServer } from "../../support/redisServer.js";
import { cliNodeArgs } from "../../cli/cliProcess.js";


function run(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; last: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...cliNodeArgs, "keys", ...args], { stdio: ["ignore", "pipe", "pipe"] });
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

describe("shardkit keys import --keys F --redis URL", () => {
  let redis: RedisServer;
  let admin: Redis;
  let gate: RedisAccessGate;
  let dir: string;

  beforeAll(async () => {
    redis = await startRedisServer();
    admin = new Redis(redis.url);
    gate = await RedisAccessGate.connect(redis.url, { pollMs: 60_000 });
    dir = await mkdtemp(join(tmpdir(), "shardkit-keys-import-"));
  });

  afterAll(async () => {
    await gate?.close();
    admin?.disconnect();
    await redis?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  /** `shardkit keys ... --file F` in process (the file side needs no Redis); returns the key printed last. */
  const fileKeys = (file: string, ...args: string[]): string => {
    const lines: string[] = [];
    void keysCommand([args[0]!, "--file", file, ...args.slice(1)], { log: (line) => lines.push(line) });
    return lines.at(-1)!;
  };

  it("moves a keys file into Redis as hashes, leaves equal entries alone, and --prune removes what the file lacks", async () => {
    const file = join(dir, "keys.json");
    const ci = fileKeys(file, "add", "--name", "ci", "--rate", "600");
    const web = fileKeys(file, "add", "--name", "web", "--browser", "--origin", "https://app.example.com");
    // A hand-written entry carrying the key itself: it must reach Redis hashed.
    const handKey = "shk_hand-written-key-for-import-0123456789";
    const text = JSON.parse(await readFile(file, "utf8")) as { version: number; keys: unknown[] };
    await writeFile(file, JSON.stringify({ ...text, keys: [...text.keys, { name: "hand", key: handKey }] }));
    // A key only Redis has, added the usual way.
    expect((await run("add", "--redis", redis.url, "--name", "redis-only")).code).toBe(0);

    const first = await run("import", "--keys", file, "--redis", redis.url);
    expect(first.code, first.stderr).toBe(0);
    expect(first.last).toMatch(/^imported .*keys\.json into Redis redis:\/\/127\.0\.0\.1:\d+\/?: 3 added, 0 updated, 0 unchanged$/);
    expect(first.stdout).toContain("added hand");
    expect(JSON.parse((await admin.hget("shardkit:keys", "ci"))!)).toEqual({ name: "ci", sha256: hashApiKey(ci), kind: "server", origins: [], ratePerMinute: 600 });
    expect(JSON.parse((await admin.hget("shardkit:keys", "hand"))!).sha256).toBe(hashApiKey(handKey));
    expect((await admin.hkeys("shardkit:keys")).sort()).toEqual(["ci", "hand", "redis-only", "web"]);
    // Hashes only: no raw key anywhere in Redis.
    const stored = JSON.stringify(await admin.hgetall("shardkit:keys"));
    for (const key of [ci, web, handKey]) expect(stored).not.toContain(key);
    // Published like any change: a running gate knows the imported keys.
    await expect.poll(() => gate.currentKeys().lookup(handKey)?.name, { timeout: 1000, interval: 10 }).toBe("hand");
    expect(gate.currentKeys().lookup(web)?.origins).toEqual(["https://app.example.com"]);

    // The same file again: nothing changes, no version bump.
    const version = await admin.get("shardkit:keys:version");
    const again = await run("import", "--keys", file, "--redis", redis.url);
    expect(again.last).toMatch(/: 0 added, 0 updated, 3 unchanged$/);
    expect(await admin.get("shardkit:keys:version")).toBe(version);

    // Rotated and revoked in the file: the import replaces "ci", keeps "web" in Redis until --prune.
    const rotated = fileKeys(file, "rotate", "--name", "ci");
    fileKeys(file, "revoke", "--name", "web");
    const update = await run("import", "--keys", file, "--redis", redis.url);
    expect(update.last).toMatch(/: 0 added, 1 updated, 1 unchanged$/);
    expect(JSON.parse((await admin.hget("shardkit:keys", "ci"))!).sha256).toBe(hashApiKey(rotated));
    expect(await admin.hexists("shardkit:keys", "web")).toBe(1);
    await expect.poll(() => gate.currentKeys().lookup(rotated)?.name, { timeout: 1000, interval: 10 }).toBe("ci");
    expect(gate.currentKeys().lookup(ci)).toBeUndefined();

    const pruned = await run("import", "--keys", file, "--redis", redis.url, "--prune");
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain("removed redis-only\n");
    expect(pruned.last).toMatch(/: 0 added, 0 updated, 2 unchanged, 2 removed$/);
    expect((await admin.hkeys("shardkit:keys")).sort()).toEqual(["ci", "hand"]);
    await expect.poll(() => gate.currentKeys().lookup(web), { timeout: 1000, interval: 10 }).toBeUndefined();
  }, 120_000);

  it("refuses a missing or broken file and misplaced flags, without touching Redis", async () => {
    const version = await admin.get("shardkit:keys:version");
    const missing = await run("import", "--keys", join(dir, "nope.json"), "--redis", redis.url);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no keys file .*nope\.json/);
    const broken = join(dir, "broken.json");
    await writeFile(broken, '{"keys": [{"name": "x", "sha256": "not-hex"}]}');
    const bad = await run("import", "--keys", broken, "--redis", redis.url);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/keys file .*broken\.json: keys\[0\]\.sha256 must be 64 lowercase hex digits/);
    const noRedis = await run("import", "--keys", broken);
    expect(noRedis.stderr).toMatch(/keys import needs --redis URL/);
    const prune = await run("list", "--redis", redis.url, "--prune");
    expect(prune.stderr).toMatch(/--keys and --prune belong to keys import/);
    expect(await admin.get("shardkit:keys:version")).toBe(version);
  }, 60_000);
});
