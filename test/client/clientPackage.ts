// Shared by the client package tests: build packages/client (tsc, as `npm run build` does),
// bundle its entry points for browsers with esbuild, and list every module a bundle pulls in.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build, type Metafile } from "esbuild";
import { repoRoot } from "../cli/cliProcess.js";

export const packageDir = join(repoRoot, "packages", "client");
export const entryPoints = {
  jsonrpc: join(packageDir, "src", "jsonrpc", "index.ts"),
  rest: join(packageDir, "src", "rest", "index.ts"),
} as const;

/** A digest of everything the package build reads (its sources, @shardkit/primitives' sources, configs). */
function sourceDigest(): string {
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts")) hash.update(path).update(readFileSync(path));
    }
  };
  walk(join(packageDir, "src"));
  walk(join(repoRoot, "packages", "primitives", "src"));
  for (const file of ["package.json", "tsconfig.json", "tsconfig.build.json"]) hash.update(readFileSync(join(packageDir, file)));
  return hash.digest("hex");
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Compiles the package into packages/client/dist (its `build` script) unless dist already is
 * the build of the current sources. Test files run in parallel: a lock directory (mkdir is
 * atomic) lets one build while the others wait, then find the stamp current.
 */
export function buildClientPackage(): void {
  const stamp = join(packageDir, "dist", ".source-digest");
  const lock = join(packageDir, ".build-lock");
  const digest = sourceDigest();
  for (let waited = 0; ; waited += 100) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (waited > 240_000) rmSync(lock, { recursive: true, force: true }); // a crashed run's lock
      sleep(100);
    }
  }
  try {
    if (existsSync(stamp) && readFileSync(stamp, "utf8") === digest) return;
    execFileSync("npm", ["run", "build", "--silent"], { cwd: join(repoRoot, "packages", "primitives"), stdio: ["ignore", "ignore", "pipe"] });
    execFileSync("npm", ["run", "build", "--silent"], { cwd: packageDir, stdio: ["ignore", "ignore", "pipe"] });
    writeFileSync(stamp, digest);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface BrowserBundle {
  code: string;
  /** Every input module (package sources, @shardkit/primitives' sources, node_modules). */
  inputs: string[];
  /** Every import specifier any input used, as written. */
  imports: string[];
}

/**
 * Bundles TypeScript entry points for browsers (platform "browser", ESM, minified): esbuild
 * refuses to resolve Node built-ins there, so a `node:` import anywhere fails the build.
 */
export async function bundleForBrowser(entries: Record<string, string>, minify = true): Promise<BrowserBundle> {
  const stdin = Object.entries(entries)
    .map(([name, file]) => `export * as ${name} from ${JSON.stringify(file)};`)
    .join("\n");
  const result = await build({
    stdin: { contents: stdin, resolveDir: repoRoot, loader: "ts" },
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    minify,
    write: false,
    metafile: true,
    // The workspace packages' sources (their "shardkit-source" export condition), as the tests resolve them.
    conditions: ["shardkit-source"],
    logLevel: "silent",
  });
  const metafile: Metafile = result.metafile;
  return {
    code: result.outputFiles[0]!.text,
    inputs: Object.keys(metafile.inputs),
    imports: Object.values(metafile.inputs).flatMap((input) => input.imports.map((i) => i.original ?? i.path)),
  };
}
