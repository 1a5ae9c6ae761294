// `npm start` runs this first: builds dist/ only when a build input is newer than the last
// build (see distFreshness.mjs).
import { spawnSync } from "node:child_process";
import { distIsFresh, repoRoot } from "./distFreshness.mjs";

if (distIsFresh()) {
  if (process.argv.includes("--verbose")) console.error("dist/ is up to date");
} else {
  console.error("building dist/ (sources changed since the last build)");
  const result = spawnSync(process.platform === "win32" ? "npm.cmd" : "npm", ["run", "build"], { cwd: repoRoot, stdio: "inherit" });
  process.exit(result.status ?? 1);
}
