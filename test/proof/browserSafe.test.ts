import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const dir = join(import.meta.dirname, "../../src/proof");

describe("src/proof is browser-safe", () => {
  const files = readdirSync(dir).filter((f) => f.endsWith(".ts"));

  it.each(files)("%s imports no node: modules, no chain code (only the browser-safe @shardkit/primitives) and no Buffer", (file) => {
    const text = readFileSync(join(dir, file), "utf8");
    const imports = [...text.matchAll(/^(?:import|export)[^;]*?from\s+"([^"]+)"/gm)].map((m) => m[1]!);
    expect(imports.length).toBeGreaterThan(["trieNodeFormat.ts", "lightClientTypes.ts", "LightClientProofError.ts"].includes(file) ? -1 : 0);
    for (const spec of imports) {
      expect(spec.startsWith("node:")).toBe(false);
      expect(spec.includes("/chain/")).toBe(false);
      expect(spec.startsWith("./") || spec.startsWith("@shardkit/primitives/") || spec.startsWith("@noble/hashes/") || spec === "@noble/curves/ed25519").toBe(true);
    }
    expect(text).not.toMatch(/\bBuffer\b|\bprocess\./);
  });
});
