import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { parseFlags, UsageError } from "./flags.js";
import { packageRoot } from "./packageRoot.js";

export const generateUsage = `Usage: shardkit generate [--check] [--spec DIR] [--out DIR]

A development command of the shardkit source repository: regenerates generated/ (OpenRPC and
OpenAPI documents, types, validators, client stubs, docs) from specs/. Run it in a clone
(npm ci, then npm run generate); the published package already ships the generated artefacts.

Options:
  --check      regenerate in memory and fail, listing the stale files, if generated/ is out of date
  --spec DIR   the specs to read (default specs/)
  --out DIR    where to write (default generated/)
  -h, --help   show this help
`;

/** Runs the generators from the source checkout this CLI belongs to, or says why it cannot. */
export function generateCommand(args: string[]): void {
  const { values, positionals } = parseFlags("generate", args, {
    check: { type: "boolean" },
    spec: { type: "string" },
    out: { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help === true) {
    process.stdout.write(generateUsage);
    return;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])} for generate`, "generate");
  const root = packageRoot();
  const entry = join(root, "generators", "main.ts");
  if (!existsSync(entry) || !canResolve(root, "tsx")) {
    throw new UsageError(
      "generate is a development command of the shardkit source repository (it needs specs/, generators/ and the dev dependencies); " +
        "this installed package already contains the generated artefacts. To change the specs: git clone the repository, npm ci, npm run generate.",
    );
  }
  const passed = [
    ...(values.check === true ? ["--check"] : []),
    ...(values.spec !== undefined ? ["--spec", values.spec] : []),
    ...(values.out !== undefined ? ["--out", values.out] : []),
  ];
  const result = spawnSync(process.execPath, ["--import", "tsx", entry, ...passed], { cwd: root, stdio: "inherit" });
  process.exitCode = result.status ?? 1;
}

function canResolve(root: string, specifier: string): boolean {
  try {
    createRequire(join(root, "package.json")).resolve(specifier);
    return true;
  } catch {
    return false;
  }
}
