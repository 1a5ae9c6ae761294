import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Set by the CLI bundle's build (scripts/bundle-cli.mjs): the hash of this directory's compiled modules. */
declare const SHARDKIT_PREPARATION_FINGERPRINT: string | undefined;

/** A hash of the scripts in `dir` that prepare contracts (the bundle's build computes the same over tsc's output). */
export function hashPreparationModules(dir: string): string {
  const hash = createHash("sha256");
  for (const name of readdirSync(dir).sort()) {
    if (!/\.(js|ts)$/.test(name) || name.endsWith(".d.ts")) continue;
    hash.update(name).update("\0").update(readFileSync(join(dir, name))).update("\0");
  }
  return hash.digest("hex");
}

/**
 * A hash of the code that prepares contracts: the modules of this directory, as this process
 * loaded them (fixed when the bundle was built, else read when this module loads, so a build
 * or an edit while the process runs does not change it). Prepared contracts kept on disk are
 * filed under it, so a shardkit whose instrumentation differs, even by one line, never reads
 * another one's output (gas would differ silently).
 */
export const PREPARATION_FINGERPRINT: string =
  typeof SHARDKIT_PREPARATION_FINGERPRINT === "string" ? SHARDKIT_PREPARATION_FINGERPRINT : hashPreparationModules(dirname(fileURLToPath(import.meta.url)));
