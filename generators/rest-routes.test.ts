// The REST route table and handler interface follow the spec: an operation added to the spec
// appears in the route table and validators, and a handler object without it fails to type-check;
// a handler answering a status or body its operation does not declare fails too.

import { createRequire } from "node:module";
import { writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as TypeScript from "typescript";
import { writeOutputs } from "./check.js";
import { copyFixtureSpec, tempDir } from "./fixture.js";
import { DOCS_DIR, docsPaths } from "./emit-docs.js";
import { REST_OUTPUT_PATHS, generate, type GeneratedFiles } from "./generate.js";

const ts = createRequire(import.meta.url)("typescript") as typeof TypeScript;

const ECHO = `/v1/echo/{word}:
  get:
    operationId: echo
    tags: [items]
    summary: Echo
    description: Answers the word.
    parameters:
      - { name: word, in: path, required: true, description: A word., schema: { type: string } }
    responses:
      '200':
        description: The word.
        content:
          application/json:
            schema: { type: string }
            example: hi
      '400':
        description: Bad word.
        content:
          application/json:
            schema: { type: string, const: Invalid argument }
            example: Invalid argument
      '403': { $ref: '#/components/responses/Forbidden' }
      '429': { $ref: '#/components/responses/RateLimited' }
      '500': { $ref: '#/components/responses/InternalError' }
`;

let dir: string;
let cleanup: () => Promise<void>;
let files: GeneratedFiles;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir("add-route"));
  const spec = await copyFixtureSpec(dir);
  await writeFile(path.join(spec, "openapi", "paths", "echo.yaml"), ECHO);
  files = await generate(spec);
  await writeOutputs(files, path.join(dir, "out"));
  await writeFile(path.join(dir, "out", "package.json"), '{ "type": "module" }\n');
});
afterAll(async () => cleanup());

async function typeCheck(source: string): Promise<string[]> {
  const file = path.join(dir, "out", "handlers.ts");
  await writeFile(file, source);
  const program = ts.createProgram([file], {
    strict: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    skipLibCheck: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

const ITEM = `item: ({ item_id }) => item_id === "x" ? { status: 400, body: "Invalid argument" } : { status: 200, body: { hash: "11111111111111111111111111111111", height: 1, note: null } }`;
const PING = `ping: () => ({ status: 200, body: { ok: true } })`;
const ECHO_HANDLER = `echo: ({ word }) => ({ status: 200, body: word })`;
const module = (entries: string[]) => `import type { RestHandlers } from "./rest/routes.js";
export const handlers: RestHandlers<unknown> = { ${entries.join(", ")} };
`;

describe("adding a REST operation to the spec", () => {
  it("adds it to the route table, validators, types and docs", () => {
    const routes = files.get(REST_OUTPUT_PATHS.routes)!;
    expect(routes).toMatch(/RestOperationId = "echo" \| "item" \| "ping";/);
    expect(routes).toMatch(/echo: \{\s+operationId: "echo",\s+method: "GET",\s+path: "\/v1\/echo\/\{word\}",\s+segments: \[\{ literal: "v1" \}, \{ literal: "echo" \}, \{ param: "word" \}\]/);
    expect(files.get(REST_OUTPUT_PATHS.validators)).toContain("compiled.response_echo_200");
    expect(files.get(REST_OUTPUT_PATHS.types)).toContain('"/v1/echo/{word}"');
    // The heading may wrap only after a "/" (<wbr>), never inside a segment.
    expect(files.get(`${DOCS_DIR}/${docsPaths.route("echo")}`)).toContain("<code>/<wbr>v1/<wbr>echo/<wbr>{word}</code>");
    expect(files.get(`${DOCS_DIR}/${docsPaths.index}`)).toContain(`href="${docsPaths.route("echo")}"`);
  });

  it("makes a handler object without the new operation fail to type-check", async () => {
    expect((await typeCheck(module([ITEM, PING]))).join("\n")).toMatch(/Property 'echo' is missing/);
    expect(await typeCheck(module([ITEM, PING, ECHO_HANDLER]))).toEqual([]);
  });

  it("rejects undeclared statuses and wrong bodies", async () => {
    const undeclared = `ping: () => ({ status: 400, body: "Invalid argument" })`;
    expect(await typeCheck(module([ITEM, undeclared, ECHO_HANDLER]))).not.toEqual([]);
    const wrongBody = `ping: () => ({ status: 200, body: { ok: false } })`;
    expect(await typeCheck(module([ITEM, wrongBody, ECHO_HANDLER]))).not.toEqual([]);
  });

  it("generates validators that accept the spec's examples and reject other bodies", async () => {
    const { restResponseValidators, validateRestResponse } = (await import(
      path.join(dir, "out", "rest", "validators.ts")
    )) as typeof import("../generated/rest/validators.js");
    const v = restResponseValidators as unknown as Record<string, Record<string, (d: unknown) => boolean>>;
    expect(v.item!["200"]!({ hash: "11111111111111111111111111111111", height: 7, note: null })).toBe(true);
    expect(v.item!["200"]!({ hash: "11111111111111111111111111111111", height: 7 })).toBe(false);
    expect(v.echo!["400"]!("Invalid argument")).toBe(true);
    expect(v.echo!["400"]!("nope")).toBe(false);
    expect((validateRestResponse as (o: string, s: number, b: unknown) => string[])("ping", 404, {})).toEqual([
      "ping: status 404 has no JSON body in the spec",
    ]);
  });
});
