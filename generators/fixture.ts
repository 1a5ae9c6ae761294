// Test helpers: the committed fixture spec and throwaway copies of it.

import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const FIXTURE_SPEC = fileURLToPath(new URL("./fixtures/spec/", import.meta.url));

/** A temporary directory for one test; remove it with the returned cleanup. */
export async function tempDir(prefix: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), `shardkit-${prefix}-`));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Copies the fixture spec into `dir/spec` and returns that path. */
export async function copyFixtureSpec(dir: string): Promise<string> {
  const target = path.join(dir, "spec");
  await cp(FIXTURE_SPEC, target, { recursive: true });
  return target;
}
