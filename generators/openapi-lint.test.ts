// lint:specs on the REST document: the fixture and the real spec pass; each kind of mistake
// (bad example, missing response, undeclared path parameter, structural error) is reported.

import { readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lintCommand } from "./commands.js";
import { copyFixtureSpec, FIXTURE_SPEC, tempDir } from "./fixture.js";
import { DEFAULT_SPEC_ROOT } from "./generate.js";
import { assembleOpenApi } from "./openapi-assemble.js";
import { lintOpenApi } from "./openapi-lint-rules.js";

let dir: string;
let cleanup: () => Promise<void>;
let spec: string;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir("openapi-lint"));
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

const lintErrors = async () => (await lintOpenApi(await assembleOpenApi(spec))).errors;

describe("lint:specs (REST)", () => {
  it("passes the fixture and the real spec", async () => {
    expect((await lintOpenApi(await assembleOpenApi(FIXTURE_SPEC))).errors).toEqual([]);
    const printed: string[] = [];
    const code = await lintCommand(["--spec", DEFAULT_SPEC_ROOT], { log: (m) => printed.push(m), error: (m) => printed.push(m) });
    expect(printed.join("\n")).toMatch(/specs\/openapi\/ OK \(15 operations/);
    expect(code).toBe(0);
  });

  it("reports an example that does not match its schema", async () => {
    await edit("openapi/paths/item.yaml", (t) => t.replace("height: 7", "height: -7"));
    expect((await lintErrors()).join("\n")).toMatch(/operation item 200 application\/json example found: example does not validate: data\/height must be >= 0/);
  });

  it("reports a missing rate-cap response and an undeclared path parameter", async () => {
    await edit("openapi/paths/item.yaml", (t) => t.replace("      '429':\n        $ref: '#/components/responses/RateLimited'\n", "").replace("/v1/item/{item_id}:", "/v1/item/{item_id}/{part}:"));
    const errors = (await lintErrors()).join("\n");
    expect(errors).toMatch(/operation item \(GET \/v1\/item\/\{item_id\}\/\{part\}\): missing the 429 response/);
    expect(errors).toMatch(/path parameter part is not declared/);
  });

  it("reports structural errors found by Redocly and a missing example", async () => {
    await edit("openapi/paths/ping.yaml", (t) => t.replace("            example:\n              ok: true\n", "").replace("    summary: Liveness\n", "    summary: Liveness\n    deprecated: maybe\n"));
    const errors = (await lintErrors()).join("\n");
    expect(errors).toMatch(/redocly struct: .*deprecated/);
    expect(errors).toMatch(/operation ping \(GET \/ping\): the 200 body needs at least one example/);
  });

  it("refuses a file not named after its operationId, and unresolved references", async () => {
    await edit("openapi/paths/ping.yaml", (t) => t.replace("operationId: ping", "operationId: pong"));
    await expect(assembleOpenApi(spec)).rejects.toThrow(/must be named after its operationId \("pong.yaml"\)/);
    await edit("openapi/paths/ping.yaml", (t) => t.replace("operationId: pong", "operationId: ping").replace("#/components/schemas/Ping", "#/components/schemas/Pong"));
    await expect(assembleOpenApi(spec)).rejects.toThrow(/unresolved \$ref in the REST spec/);
  });
});
