// The README's table of implemented JSON-RPC methods names every method of the spec, once, and
// nothing else: a method added to specs/ without a row (or a row left after a method went) fails.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../cli/cliProcess.js";

const openrpc = JSON.parse(readFileSync(join(repoRoot, "generated", "openrpc.json"), "utf8")) as { methods: { name: string }[] };

function tableMethods(): string[] {
  const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
  const start = readme.indexOf("## Implemented JSON-RPC methods");
  expect(start).toBeGreaterThanOrEqual(0);
  const rows = readme
    .slice(start)
    .split("\n")
    .filter((line) => line.startsWith("| `"));
  return rows.flatMap((row) => [...row.split(" | ")[0]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!));
}

describe("README method table", () => {
  it("names every JSON-RPC method of the spec exactly once", () => {
    const names = tableMethods();
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    expect([...names].sort()).toEqual(openrpc.methods.map((m) => m.name).sort());
  });
});
