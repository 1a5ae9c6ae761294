// Every code block of the README and the guides (docs/*.md) is run by some test, or is plainly not
// a program: a `text` block (output, a diagram, a usage synopsis). The runners and what they claim
// are listed in codeBlocks.ts (blockRunners); this file fails on a block none of them claims, on a
// runner that claims nothing, and on a fence without a language.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../cli/cliProcess.js";
import { blockRunners, docBlocks, docFiles, where } from "./codeBlocks.js";

const blocks = docBlocks();
const runners = Object.entries(blockRunners);

describe("documentation code blocks", () => {
  it("reads the README and every guide", () => {
    expect(docFiles()[0]).toBe("README.md");
    expect(docFiles().length).toBeGreaterThanOrEqual(10);
    expect(blocks.length).toBeGreaterThanOrEqual(20);
  });

  it("gives every fence a language", () => {
    expect(blocks.filter((b) => b.lang === "").map(where)).toEqual([]);
  });

  it("has a test for every block that is a program", () => {
    const unclaimed = blocks.filter((b) => b.lang !== "text" && !runners.some(([, runner]) => runner.claims(b)));
    expect(unclaimed.map((b) => `${where(b)} [${b.lang}] ${b.code.split("\n")[0]}`)).toEqual([]);
    const twice = blocks.filter((b) => runners.filter(([, runner]) => runner.claims(b)).length > 1);
    expect(twice.map(where)).toEqual([]);
  });

  it("marks as text only what is not a program", () => {
    const programs = blocks.filter((b) => b.lang === "text" && /^(import |curl |npm |const |await )/m.test(b.code));
    expect(programs.map(where)).toEqual([]);
  });

  it("has no runner that claims nothing, and each runner's test file exists", () => {
    for (const [name, runner] of runners) {
      expect(blocks.filter(runner.claims).map(where), name).not.toEqual([]);
      expect(existsSync(join(repoRoot, runner.test)), runner.test).toBe(true);
    }
  });

  it("the set-up commands are the README's, verbatim, and CI runs them", () => {
    const setup = blocks.filter(blockRunners.setup.claims);
    // One block, the README's first.
    expect(setup.map(where)).toEqual([where(blocks[0]!)]);
    expect(blocks[0]!.file).toBe("README.md");
    expect(setup[0]!.code).toContain("npm ci && npm start");
    expect(setup[0]!.code).toMatch(/^npm test\b/m);
    const ci = readFileSync(join(repoRoot, ".ci", "run"), "utf8");
    expect(ci).toMatch(/^npm ci$/m);
    expect(ci).toMatch(/^npm test$/m);
    const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(manifest.scripts.start).toBe("node dist/cli/main.js serve");
  });
});
