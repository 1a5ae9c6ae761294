// The workspace packages are separate packages: each imports only its own files by relative path
// and the others by name, in the order the README's Layout section states.

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./cli/cliProcess.js";

/** Every .ts file under `dir` (built output and dependencies aside). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "dist" || entry.name === "node_modules" ? [] : sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Every module specifier a file imports or re-exports (static and dynamic). */
function specifiers(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:^|\s)(?:import|export)\s[^;]*?from\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)/gm)].map((m) => (m[1] ?? m[2])!);
}

const packagesDir = join(repoRoot, "packages");
const packages = readdirSync(packagesDir);

describe("package boundaries", () => {
  it.each(packages)("packages/%s imports only its own files by relative path", (name) => {
    const root = join(packagesDir, name);
    const crossing = sources(join(root, "src")).flatMap((file) =>
      specifiers(file)
        .filter((spec) => spec.startsWith("."))
        .filter((spec) => relative(root, resolve(dirname(file), spec)).startsWith(".."))
        .map((spec) => `${relative(repoRoot, file)}: ${spec}`),
    );
    expect(crossing).toEqual([]);
  });

  it("@shardkit/primitives imports no other workspace package; @shardkit/client only @shardkit/primitives", () => {
    const named = (name: string) =>
      new Set(
        sources(join(packagesDir, name, "src"))
          .flatMap(specifiers)
          .filter((spec) => spec.startsWith("@shardkit/") || spec === "shardkit" || spec.startsWith("shardkit/"))
          .map((spec) => spec.split("/").slice(0, 2).join("/")),
      );
    expect([...named("primitives")]).toEqual([]);
    expect([...named("client")]).toEqual(["@shardkit/primitives"]);
  });

  it("src/ reaches the packages by name, never into packages/ by relative path", () => {
    const crossing = sources(join(repoRoot, "src")).flatMap((file) =>
      specifiers(file)
        .filter((spec) => spec.startsWith(".") && relative(repoRoot, resolve(dirname(file), spec)).startsWith("packages"))
        .map((spec) => `${relative(repoRoot, file)}: ${spec}`),
    );
    expect(crossing).toEqual([]);
  });
});
