import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

let fingerprint: string | undefined;

/**
 * A hash of the code that prepares contracts: every script in this module's directory (the
 * preparation modules of a checkout, or every chunk of the CLI bundle, which holds them).
 * Prepared contracts kept on disk are filed under it, so a shardkit whose instrumentation
 * differs, even by one line, never reads another one's output (gas would differ silently).
 */
export function preparationFingerprint(): string {
  if (fingerprint !== undefined) return fingerprint;
  const dir = dirname(fileURLToPath(import.meta.url));
  const hash = createHash("sha256");
  for (const name of readdirSync(dir).sort()) {
    if (!/\.(js|ts)$/.test(name) || name.endsWith(".d.ts")) continue;
    hash.update(name).update("\0").update(readFileSync(`${dir}/${name}`)).update("\0");
  }
  return (fingerprint = hash.digest("hex"));
}
