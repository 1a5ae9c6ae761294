// Whether dist/ is the build of the current sources: no build input is newer than the last
// build (the CLI bundle, dist/cli/main.js, is the build's last output, so it marks when it last ran). Used by
// `npm start` (build-if-stale.mjs) and by the tests that run the CLI (the built one when fresh).
import { readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
export const builtCli = join(repoRoot, "dist", "cli", "main.js");

function newestInput() {
  let newest = 0;
  const visit = (path) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat === undefined) return;
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
    else if (!path.endsWith(".test.ts")) newest = Math.max(newest, stat.mtimeMs);
  };
  for (const input of ["src", "generated", "tsconfig.json", "tsconfig.build.json", "package.json", "packages/primitives/src", "packages/primitives/package.json", "packages/client/src", "packages/client/package.json"]) visit(join(repoRoot, input));
  return newest;
}

export function distIsFresh() {
  const built = statSync(builtCli, { throwIfNoEntry: false })?.mtimeMs;
  return built !== undefined && built >= newestInput();
}
