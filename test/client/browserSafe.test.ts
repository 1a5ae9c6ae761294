// The client package is browser-safe: nothing it pulls in (its sources, the shared Borsh and
// secp256k1 files of @shardkit/primitives, @noble, openapi-fetch) imports a Node built-in or uses Buffer
// or process, and it bundles for the browser platform.

import { builtinModules } from "node:module";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../cli/cliProcess.js";
import { bundleForBrowser, entryPoints } from "./clientPackage.js";

const nodeBuiltins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

describe("@shardkit/client is browser-safe", () => {
  it("bundles for the browser platform with no Node built-in in its import graph", async () => {
    const bundle = await bundleForBrowser(entryPoints, false);
    expect(bundle.imports.filter((spec) => spec.startsWith("node:") || nodeBuiltins.has(spec))).toEqual([]);
    // The shared codec really is the node's: the bundle is built from @shardkit/primitives' files.
    expect(bundle.inputs).toContain("packages/primitives/src/transactionBorsh.ts");
    expect(bundle.inputs).toContain("packages/primitives/src/secp256k1.ts");
    expect(bundle.inputs.filter((input) => /^src\/chain\/primitives\/(sha256|base64)\.ts$|verifySignature/.test(input))).toEqual([]);
  });

  it("uses no Buffer, process or require in any source it bundles", async () => {
    const bundle = await bundleForBrowser(entryPoints, false);
    const ours = bundle.inputs.filter((input) => !input.startsWith("node_modules/") && !input.startsWith("<stdin>"));
    expect(ours.length).toBeGreaterThan(20);
    const offenders = ours.filter((input) => {
      const code = readFileSync(join(repoRoot, input), "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/\/\/.*$/gm, "");
      return /\bBuffer\b|\bprocess\.|\brequire\(/.test(code);
    });
    expect(offenders).toEqual([]);
  });

  it("a deliberate node: import in the graph would fail the browser bundle", async () => {
    await expect(bundleForBrowser({ bad: join(repoRoot, "src", "chain", "primitives", "sha256.ts") })).rejects.toThrow(/node:crypto/);
  });
});
