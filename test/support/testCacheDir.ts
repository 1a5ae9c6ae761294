// vitest globalSetup: the test run's servers keep prepared contracts in a cache dir of the run's
// own (SHARDKIT_CACHE_DIR, inherited by the workers and every server they start), not in the
// user's ~/.cache/shardkit; removed after the run. A SHARDKIT_CACHE_DIR already set is kept.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  if (process.env.SHARDKIT_CACHE_DIR !== undefined) return () => undefined;
  const dir = mkdtempSync(join(tmpdir(), "shardkit-test-cache-"));
  process.env.SHARDKIT_CACHE_DIR = dir;
  return () => {
    // Every project runs this teardown in the one main process: the first removes the dir.
    if (process.env.SHARDKIT_CACHE_DIR !== dir) return;
    delete process.env.SHARDKIT_CACHE_DIR;
    rmSync(dir, { recursive: true, force: true });
  };
}
