import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

/** Test files under `dir` that start their services through the HTTP test harness (test/server/harness.ts). */
function harnessSuites(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...harnessSuites(path));
    else if (entry.name.endsWith(".test.ts") && /from "(\.\.?\/)+(server\/)?harness\.js"/.test(readFileSync(path, "utf8"))) found.push(path);
  }
  return found;
}

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: "main", include: ["test/**/*.test.ts", "src/**/*.test.ts", "generators/**/*.test.ts"] },
      },
      {
        // Everything that worked in --ephemeral works unchanged on disk: the integration suites
        // again, each service on a fresh LMDB data dir (SHARDKIT_TEST_STORE, see the harness).
        extends: true,
        test: { name: "disk", include: harnessSuites("test"), env: { SHARDKIT_TEST_STORE: "disk" } },
      },
    ],
  },
});
