import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../cli/cliProcess.js";

// A stand-in project: the real scripts, a `build` that counts its runs, and one source file.
const root = mkdtempSync(join(tmpdir(), "shardkit-prestart-"));
mkdirSync(join(root, "scripts"));
for (const script of ["build-if-stale.mjs", "distFreshness.mjs"]) copyFileSync(join(repoRoot, "scripts", script), join(root, "scripts", script));
const build = `node -e "const fs=require('fs');fs.mkdirSync('dist/cli',{recursive:true});fs.writeFileSync('dist/cli/main.js','');fs.appendFileSync('builds','x')"`;
writeFileSync(join(root, "package.json"), JSON.stringify({ name: "stand-in", private: true, scripts: { build } }));
mkdirSync(join(root, "src"));
writeFileSync(join(root, "src", "a.ts"), "export {};\n");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const prestart = () => spawnSync(process.execPath, [join(root, "scripts", "build-if-stale.mjs")], { cwd: root, encoding: "utf8" });
const builds = () => readFileSync(join(root, "builds"), "utf8").length;
const age = (path: string, secondsAgo: number) => {
  const when = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(path, when, when);
};

describe("npm start's prestart (scripts/build-if-stale.mjs)", () => {
  it("builds when dist/ is missing, skips while it is fresh, rebuilds after a source changes", () => {
    expect(prestart().status).toBe(0);
    expect(builds()).toBe(1);

    age(join(root, "package.json"), 60);
    age(join(root, "src", "a.ts"), 60);
    expect(prestart().status).toBe(0);
    expect(builds()).toBe(1);

    age(join(root, "dist", "cli", "main.js"), 30);
    writeFileSync(join(root, "src", "a.ts"), "export const changed = 1;\n");
    expect(prestart().status).toBe(0);
    expect(builds()).toBe(2);

    // A test file is not a build input.
    age(join(root, "src", "a.ts"), 60);
    writeFileSync(join(root, "src", "a.test.ts"), "");
    expect(prestart().status).toBe(0);
    expect(builds()).toBe(2);
  });
});
