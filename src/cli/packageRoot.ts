import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isJsonObject } from "@shardkit/primitives/isJsonObject";

/** The directory of the package.json this CLI belongs to (the checkout, or the installed package). */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("cannot find the shardkit package root");
    dir = parent;
  }
  return dir;
}

/** The version in this package's package.json. */
export function packageVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8"));
  return isJsonObject(manifest) && typeof manifest.version === "string" ? manifest.version : "unknown";
}
