// Shared by the client package tests: build packages/client (tsc, as `npm run build` does),
// bundle its entry points for browsers with esbuild, and list every module a bundle pulls in.

import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { build, type Metafile } from "esbuild";
import { repoRoot } from "../cli/cliProcess.js";

export const packageDir = join(repoRoot, "packages", "client");
export const entryPoints = {
  jsonrpc: join(packageDir, "src", "jsonrpc", "index.ts"),
  rest: join(packageDir, "src", "rest", "index.ts"),
} as const;

const primitivesDir = join(repoRoot, "packages", "primitives");

/** The newest modification time of everything the package build reads (its sources, @shardkit/primitives', configs). */
function newestInput(): number {
  let newest = 0;
  const visit = (path: string): void => {
    const stat = statSync(path);
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const dir of [packageDir, primitivesDir]) {
    visit(join(dir, "src"));
    for (const file of ["package.json", "tsconfig.json", "tsconfig.build.json"]) visit(join(dir, file));
  }
  return newest;
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Compiles the package into packages/client/dist (its `build` script, which builds
 * @shardkit/primitives first) unless dist already is the build of the current sources: tsc
 * rewrites every output, so dist/index.js is as old as the last build (after `npm ci`, whose
 * prepare step built it, it is current). Test files run in parallel: a lock directory (mkdir is
 * atomic) lets one build while the others wait, then find it current.
 */
export function buildClientPackage(): void {
  const built = join(packageDir, "dist", "index.js");
  const lock = join(packageDir, ".build-lock");
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
    const builtAt = statSync(built, { throwIfNoEntry: false })?.mtimeMs;
    if (builtAt !== undefined && builtAt >= newestInput()) return;
    execFileSync("npm", ["run", "build", "--silent"], { cwd: packageDir, stdio: ["ignore", "ignore", "pipe"] });
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
