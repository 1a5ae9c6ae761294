// Shared by the client package tests: build packages/client (tsc, as `npm run build` does),
// bundle its entry points for browsers with esbuild, and list every module a bundle pulls in.

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { build, type Metafile } from "esbuild";
import { repoRoot } from "../cli/cliProcess.js";

export const packageDir = join(repoRoot, "packages", "client");
export const entryPoints = {
  jsonrpc: join(packageDir, "src", "jsonrpc", "index.ts"),
  rest: join(packageDir, "src", "rest", "index.ts"),
} as const;

/** Compiles the package into packages/client/dist (its `build` script). */
export function buildClientPackage(): void {
  execFileSync("npm", ["run", "build", "--silent"], { cwd: packageDir, stdio: ["ignore", "ignore", "pipe"] });
}

export interface BrowserBundle {
  code: string;
  /** Every input module (package sources, shared src/chain files, node_modules). */
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
    logLevel: "silent",
  });
  const metafile: Metafile = result.metafile;
  return {
    code: result.outputFiles[0]!.text,
    inputs: Object.keys(metafile.inputs),
    imports: Object.values(metafile.inputs).flatMap((input) => input.imports.map((i) => i.original ?? i.path)),
  };
}
