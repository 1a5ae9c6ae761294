// lint:specs and the assembler's own checks: clean specs pass, each kind of mistake is reported.

import { readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assembleOpenRpc } from "./assemble.js";
import { lintCommand } from "./commands.js";
import { copyFixtureSpec, FIXTURE_SPEC, tempDir } from "./fixture.js";
import { DEFAULT_SPEC_ROOT } from "./generate.js";
import { lintOpenRpc } from "./lint-rules.js";

let dir: string;
let cleanup: () => Promise<void>;
let spec: string;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir("lint"));
  spec = await copyFixtureSpec(dir);
});
afterEach(async () => cleanup());

async function edit(relative: string, change: (text: string) => string): Promise<void> {
  const file = path.join(spec, relative);
  const before = await readFile(file, "utf8");
  const after = change(before);
  expect(after, `edit of ${relative} changed nothing`).not.toBe(before);
  await writeFile(file, after);
}

async function lintErrors(): Promise<string[]> {
  return lintOpenRpc(await assembleOpenRpc(spec)).errors;
}

describe("lint:specs", () => {
  it("passes the fixture and the real spec", async () => {
    expect(lintOpenRpc(await assembleOpenRpc(FIXTURE_SPEC)).errors).toEqual([]);
    const printed: string[] = [];
    const code = await lintCommand(["--spec", DEFAULT_SPEC_ROOT], {
      log: (m) => printed.push(m),
      error: (m) => printed.push(m),
    });
    expect(printed.join("\n")).toMatch(/OK \(\d+ methods/);
    expect(code).toBe(0);
  });

  it.each([
    [
      "an example whose result breaks the schema",
      "openrpc/methods/price.yaml",
      (t: string) => t.replace('price: "100"', "price: 100"),
      /method price example latest: result\/price must be string/,
    ],
    [
      "an example with an undeclared param",
      "openrpc/methods/health.yaml",
      (t: string) =>
        t.replace(
          "  - name: ok\n    params: []",
          "  - name: ok\n    params: [{ name: verbose, value: true }]",
        ),
      /method health example ok: param verbose is not declared/,
    ],
    [
      "an example with a wrong union combination",
      "openrpc/methods/lookup.yaml",
      (t: string) =>
        t.replace(
          "      - { name: name, value: alice }",
          "      - { name: name, value: alice }\n      - { name: id, value: 1 }",
        ),
      /method lookup example by_name: params must NOT have unevaluated properties/,
    ],
    [
      "an unknown error cause",
      "openrpc/methods/health.yaml",
      (t: string) =>
        t.replace("x-error-causes: [INTERNAL_ERROR]", "x-error-causes: [INTERNAL_ERROR, NO_SUCH_CAUSE]"),
      /method health: error cause NO_SUCH_CAUSE is not in x-error-cause-catalog/,
    ],
    [
      "a cause with the wrong HTTP status",
      "openrpc/error-causes.yaml",
      (t: string) => t.replace("  httpStatus: 400", "  httpStatus: 200"),
      /PARSE_ERROR: REQUEST_VALIDATION_ERROR must use HTTP 400, not 200/,
    ],
    [
      "a structured data schema that is not a $ref",
      "openrpc/error-causes.yaml",
      (t: string) =>
        t.replace("dataSchema: { $ref: '#/components/schemas/RejectedData' }", "dataSchema: RejectedData"),
      /x-error-cause-catalog REJECTED: dataSchema must be \{ \$ref/,
    ],
    [
      "a missing description",
      "openrpc/methods/health.yaml",
      (t: string) => t.replace("description: No params; null result.\n", ""),
      /method health: missing description/,
    ],
    [
      "a flat descriptor that disagrees with x-params-schema",
      "openrpc/methods/lookup.yaml",
      (t: string) =>
        t.replace(
          "  - name: id\n    schema: { type: integer, minimum: 1 }",
          "  - name: id\n    schema: { type: integer }",
        ),
      /method lookup: param id schema .* differs from x-params-schema/,
    ],
    [
      "a flat descriptor missing from the list",
      "openrpc/methods/lookup.yaml",
      (t: string) => t.replace("  - name: exact\n    schema: { type: boolean, default: false }\n", ""),
      /method lookup: x-params-schema has exact but params do not list it/,
    ],
    [
      "a discriminator descriptor that is not the enum of the tags",
      "openrpc/methods/lookup.yaml",
      (t: string) => t.replace("enum: [by_name, by_id]", "enum: [by_name]"),
      /method lookup: param kind must be an enum of \["by_name","by_id"\]/,
    ],
    [
      "an undeclared extension",
      "openrpc/methods/price.yaml",
      (t: string) => t.replace("paramStructure: by-name", "paramStructure: by-name\nx-rate-limit: 5"),
      /method price: x-rate-limit is not declared in x-extensions/,
    ],
    [
      "a meta-schema violation",
      "openrpc/methods/price.yaml",
      (t: string) => t.replace("paramStructure: by-name", "paramStructure: by-name\nresultFormat: json"),
      /meta-schema: .*additional properties/,
    ],
  ])("reports %s", async (_name, file, change, expected) => {
    await edit(file, change);
    expect((await lintErrors()).join("\n")).toMatch(expected);
  });

  it("exits 1 from the command line with the problems listed", async () => {
    await edit("openrpc/methods/price.yaml", (t) => t.replace('price: "100"', "price: 100"));
    const printed: string[] = [];
    const code = await lintCommand(["--spec", spec], {
      log: (m) => printed.push(m),
      error: (m) => printed.push(m),
    });
    expect(code).toBe(1);
    expect(printed.join("\n")).toContain("1 problem(s)");
  });
});

describe("assembler", () => {
  it.each([
    [
      "a file not named after its method",
      async () =>
        writeFile(
          path.join(spec, "openrpc/methods/other.yaml"),
          await readFile(path.join(spec, "openrpc/methods/price.yaml"), "utf8"),
        ),
      /other\.yaml: file must be named after its method \("price\.yaml"\)/,
    ],
    [
      "a schema defined twice",
      async () => writeFile(path.join(spec, "schemas/zz.yaml"), "Height:\n  type: integer\n"),
      /schema Height is already defined/,
    ],
    [
      "a hand-written errors list",
      async () => edit("openrpc/methods/health.yaml", (t) => `${t}errors: [{ code: 1, message: x }]\n`),
      /do not write "errors"/,
    ],
    [
      "an unresolved $ref",
      async () =>
        edit("openrpc/methods/price.yaml", (t) =>
          t.replace("#/components/schemas/Height", "#/components/schemas/Hieght"),
        ),
      /unresolved \$ref[\s\S]*Hieght/,
    ],
    [
      "a YAML syntax error",
      async () =>
        edit("openrpc/methods/price.yaml", (t) => t.replace("summary: Get a price.", "summary: [unclosed")),
      /price\.yaml:/,
    ],
  ])("rejects %s", async (_name, change, expected) => {
    await change();
    await expect(assembleOpenRpc(spec)).rejects.toThrow(expected);
  });
});
