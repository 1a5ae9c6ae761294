// The suites that need Chromium, redis-server or PostgreSQL are found from their imports, left
// out with one notice where the program is missing, and make the run fail under
// SHARDKIT_REQUIRE_ALL_SUITES=1 (what .ci/run sets).

import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../cli/cliProcess.js";
import { programsNeededBy, skippedNotice, skippedSuites } from "./requiredServices.js";

const testRoot = join(repoRoot, "test");
const needs = (file: string) => [...programsNeededBy(join(repoRoot, file), testRoot)].sort();

describe("requiredServices", () => {
  it("finds what a suite needs through its imports, direct or through other test files", () => {
    expect(needs("test/gateway/outages.test.ts")).toEqual(["postgresql-15", "redis-server"]);
    expect(needs("test/gateway/redis/gatewayRedis.test.ts")).toEqual(["redis-server"]);
    expect(needs("test/indexer/postgresIndexStore.test.ts")).toEqual(["postgresql-15"]);
    expect(needs("test/client/chromium.test.ts")).toEqual(["chromium"]);
    expect(needs("test/docs/site.test.ts")).toEqual(["chromium"]);
    expect(needs("test/cli/formatNear.test.ts")).toEqual([]);
    expect(needs("test/server/envelope.test.ts")).toEqual([]);
  });

  it("leaves out only the suites whose program is missing, and names what to install", () => {
    const files = ["test/gateway/outages.test.ts", "test/gateway/redis/gatewayRedis.test.ts", "test/indexer/postgresIndexStore.test.ts", "test/cli/formatNear.test.ts"];
    expect(skippedSuites(files, repoRoot, []).suites.size).toBe(0);
    const skipped = skippedSuites(files, repoRoot, ["redis-server"]);
    expect([...skipped.suites]).toEqual([
      ["test/gateway/outages.test.ts", ["redis-server"]],
      ["test/gateway/redis/gatewayRedis.test.ts", ["redis-server"]],
    ]);
    const notice = skippedNotice(skipped);
    expect(notice).toMatch(/^NOTE: 2 test file\(s\) were NOT run: this machine lacks redis-server\./);
    expect(notice).toContain("redis-server: apt-get install -y --no-install-recommends redis-server");
    expect(notice).toContain("test/gateway/outages.test.ts, test/gateway/redis/gatewayRedis.test.ts");
    expect(notice).toContain("SHARDKIT_REQUIRE_ALL_SUITES=1");
  });
});

/** `vitest run <file>` in a child process with the given environment. */
function vitest(file: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(repoRoot, "node_modules", "vitest", "vitest.mjs"), "run", "--project", "main", file], {
      cwd: repoRoot,
      env: { ...process.env, ...env, VITEST: undefined, VITEST_POOL_ID: undefined, VITEST_WORKER_ID: undefined, NODE_ENV: undefined, FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => resolve({ code, output }));
  });
}

describe("vitest.config.ts on a machine without redis-server", () => {
  // SHARDKIT_REDIS_SERVER pointing nowhere stands for a machine without Redis.
  const noRedis = { SHARDKIT_REDIS_SERVER: "/nonexistent/redis-server" };

  it("runs the rest and ends with one notice naming what to install", async () => {
    const { code, output } = await vitest("test/cli/formatNear.test.ts", { ...noRedis, SHARDKIT_REQUIRE_ALL_SUITES: "" });
    expect(code, output).toBe(0);
    expect(output.match(/NOTE: \d+ test file\(s\) were NOT run: this machine lacks [^\n]*redis-server/g)).toHaveLength(1);
    expect(output).toContain("test/gateway/outages.test.ts");
  }, 120_000);

  it("fails the run under SHARDKIT_REQUIRE_ALL_SUITES=1 (CI)", async () => {
    const { code, output } = await vitest("test/cli/formatNear.test.ts", { ...noRedis, SHARDKIT_REQUIRE_ALL_SUITES: "1" });
    expect(code).not.toBe(0);
    expect(output).toMatch(/SHARDKIT_REQUIRE_ALL_SUITES=1 but \d+ test file\(s\) cannot run/);
  }, 120_000);
});
