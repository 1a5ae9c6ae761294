// `generate --check`: stale, missing and orphan files are reported, and the CLI exits 1.

import { readFile, rm, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { compareWithDisk, isClean, writeOutputs } from "./check.js";
import { FIXTURE_SPEC, tempDir } from "./fixture.js";
import { generateCommand } from "./commands.js";
import { OUTPUT_PATHS, generate, type GeneratedFiles } from "./generate.js";

let files: GeneratedFiles;
let out: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  files = await generate(FIXTURE_SPEC);
});
beforeEach(async () => {
  ({ dir: out, cleanup } = await tempDir("check"));
});
afterEach(async () => cleanup());

describe("check", () => {
  it("reports stale, missing and orphan files, and a write repairs them", async () => {
    expect(await compareWithDisk(files, out)).toEqual({
      stale: [],
      missing: [...files.keys()].sort(),
      orphan: [],
    });
    await writeOutputs(files, out);
    expect(isClean(await compareWithDisk(files, out))).toBe(true);

    const types = path.join(out, OUTPUT_PATHS.types);
    await writeFile(types, `${await readFile(types, "utf8")}// hand edit\n`);
    await rm(path.join(out, OUTPUT_PATHS.client));
    await writeFile(path.join(out, "rpc", "leftover.ts"), "export {};\n");
    expect(await compareWithDisk(files, out)).toEqual({
      stale: [OUTPUT_PATHS.types],
      missing: [OUTPUT_PATHS.client],
      orphan: ["rpc/leftover.ts"],
    });

    await writeOutputs(files, out);
    expect(isClean(await compareWithDisk(files, out))).toBe(true);
  });

  it("exits 1 and lists the stale file from the command line", async () => {
    await writeOutputs(files, out);
    await writeFile(path.join(out, OUTPUT_PATHS.methods), "stale\n");
    const printed: string[] = [];
    const output = { log: (m: string) => printed.push(m), error: (m: string) => printed.push(m) };
    const code = await generateCommand(["--check", "--spec", FIXTURE_SPEC, "--out", out], output);
    expect(code).toBe(1);
    expect(printed.join("\n")).toMatch(new RegExp(`stale: +\\S*${OUTPUT_PATHS.methods}`));
  });
});
