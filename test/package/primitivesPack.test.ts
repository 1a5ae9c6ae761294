// @shardkit/primitives as npm packs it: its compiled modules (one .js and .d.ts per source file)
// and README only, importable through its exports by plain Node, within its size budget.

import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../cli/cliProcess.js";
import { buildClientPackage } from "../client/clientPackage.js";

/** Measured 2026-12-01 when the package was split out of src/chain: 20.4 KB packed, 38 files. */
const BUDGET = { packedBytes: 32 * 1024, files: 60 };

const packageDir = join(repoRoot, "packages", "primitives");

interface PackReport {
  size: number;
  entryCount: number;
  files: { path: string }[];
}

let report: PackReport;
beforeAll(() => {
  buildClientPackage(); // builds @shardkit/primitives first, when either is stale
  const out = execFileSync("npm", ["pack", "--json", "--dry-run", "--ignore-scripts"], { cwd: packageDir, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  report = (JSON.parse(out) as PackReport[])[0]!;
}, 240_000);

describe("the packed @shardkit/primitives", () => {
  it("ships a .js and a .d.ts for every source module, its README and nothing else", () => {
    const modules = readdirSync(join(packageDir, "src"))
      .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
      .map((name) => name.replace(/\.ts$/, ""));
    const expected = ["package.json", "README.md", ...modules.flatMap((m) => [`dist/${m}.js`, `dist/${m}.d.ts`])];
    expect(report.files.map((f) => f.path).sort()).toEqual(expected.sort());
  });

  it(`stays within its size budget (${BUDGET.packedBytes} B packed, ${BUDGET.files} files)`, () => {
    expect(report.size).toBeLessThanOrEqual(BUDGET.packedBytes);
    expect(report.entryCount).toBeLessThanOrEqual(BUDGET.files);
  });

  it("imports in plain Node through its root entry and its subpaths (the built dist/)", () => {
    const out = execFileSync(
      process.execPath,
      ["--input-type=module", "-e", `const p = await import("@shardkit/primitives"); const b = await import("@shardkit/primitives/base58"); console.log(import.meta.resolve("@shardkit/primitives/base58").includes("/dist/"), p.base58Encode === b.base58Encode, b.base58Encode(new Uint8Array([0, 1, 2])));`],
      { cwd: repoRoot, encoding: "utf8" },
    );
    expect(out.trim()).toBe("true true 15T");
  });

  it("declares only browser-safe dependencies", () => {
    const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    // Pure-JS @noble packages: curves (secp256k1), hashes (SHA3-256 key handles), post-quantum (ML-DSA-65).
    expect(Object.keys(manifest.dependencies)).toEqual(["@noble/curves", "@noble/hashes", "@noble/post-quantum"]);
  });
});
