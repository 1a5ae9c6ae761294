// `npm start` runs this first: builds dist/ only when a build input is newer than the last
// build (tsc rewrites every output, so dist/src/cli/main.js marks when it last ran).
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const marker = join(root, "dist", "src", "cli", "main.js");

function newestInput() {
  let newest = 0;
  const visit = (path) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat === undefined) return;
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
    else if (!path.endsWith(".test.ts")) newest = Math.max(newest, stat.mtimeMs);
  };
  for (const input of ["src", "generated", "tsconfig.json", "tsconfig.build.json", "package.json"]) visit(join(root, input));
  return newest;
}

const built = statSync(marker, { throwIfNoEntry: false })?.mtimeMs;
if (built !== undefined && built >= newestInput()) {
  if (process.argv.includes("--verbose")) console.error("dist/ is up to date");
} else {
  console.error("building dist/ (sources changed since the last build)");
  const result = spawnSync(process.platform === "win32" ? "npm.cmd" : "npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  process.exit(result.status ?? 1);
}
