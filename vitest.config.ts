import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { defaultServerConditions } from "vite";
import { configDefaults, defineConfig } from "vitest/config";
import { skippedNotice, skippedSuites } from "./test/support/requiredServices.js";

/** Every test file under `dir`. */
function testFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...testFiles(path));
    else if (entry.name.endsWith(".test.ts")) found.push(path);
  }
  return found;
}

/** Test files that start their services through the HTTP test harness (test/server/harness.ts). */
const harnessSuites = (files: string[]) => files.filter((path) => /from "(\.\.?\/)+(server\/)?harness\.js"/.test(readFileSync(path, "utf8")));

const allTests = testFiles("test");
// Suites that need Chromium, redis-server or PostgreSQL 15 are left out where the program is
// missing (a machine with only Node), with one notice at the end (test/support/requiredServices.ts);
// CI sets SHARDKIT_REQUIRE_ALL_SUITES=1 and fails instead.
const skipped = skippedSuites(allTests, process.cwd());
if (skipped.suites.size > 0 && process.env.SHARDKIT_REQUIRE_ALL_SUITES === "1") {
  throw new Error(`SHARDKIT_REQUIRE_ALL_SUITES=1 but ${skipped.suites.size} test file(s) cannot run:\n${skippedNotice(skipped)}`);
}
const exclude = [...skipped.suites.keys()];
if (exclude.length > 0) process.env.SHARDKIT_SKIPPED_SUITES_NOTICE = skippedNotice(skipped);

// Workspace packages (packages/*) are tested from their sources, not their last build: their
// "exports" carry a "shardkit-source" condition, as tsconfig.json's customConditions does.
const sourceConditions = ["shardkit-source", ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions: sourceConditions },
  ssr: { resolve: { conditions: sourceConditions } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two test files at once (vitest's default on 2 cores is one): most files wait on servers,
    // child processes and fsync more than they compute. The full suite: 712 s against 1,031 s.
    maxWorkers: 2,
    globalSetup: ["test/support/skippedSuitesNotice.ts", "test/support/testCacheDir.ts"],
    projects: [
      {
        extends: true,
        test: { name: "main", include: ["test/**/*.test.ts", "src/**/*.test.ts", "generators/**/*.test.ts"], exclude: [...configDefaults.exclude, ...exclude] },
      },
      {
        // Everything that worked in --ephemeral works unchanged on disk: the integration suites
        // again, each service on a fresh LMDB data dir (SHARDKIT_TEST_STORE, see the harness).
        extends: true,
        test: { name: "disk", include: harnessSuites(allTests), exclude: [...configDefaults.exclude, ...exclude], env: { SHARDKIT_TEST_STORE: "disk" } },
      },
    ],
  },
});
