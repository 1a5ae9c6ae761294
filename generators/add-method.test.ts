// Adding a method to the spec adds it everywhere, and a handler object without it stops
// type-checking.

import { createRequire } from "node:module";
import { mkdir, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as TypeScript from "typescript";
import { writeOutputs } from "./check.js";
import { copyFixtureSpec, tempDir } from "./fixture.js";
import { DOCS_DIR, SEARCH_INDEX_FILE, docsPaths } from "./emit-docs.js";
import { OUTPUT_PATHS, generate, type GeneratedFiles } from "./generate.js";

const ts = createRequire(import.meta.url)("typescript") as typeof TypeScript;

const PING = `name: ping
summary: Echo a word back.
description: Added by a test.
paramStructure: by-name
params:
  - name: word
    required: true
    schema: { type: string }
result:
  name: result
  schema: { type: string }
x-error-causes: [PARSE_ERROR]
examples:
  - name: hello
    params: [{ name: word, value: hello }]
    result: { name: result, value: hello }
`;

let dir: string;
let cleanup: () => Promise<void>;
let files: GeneratedFiles;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir("add-method"));
  const spec = await copyFixtureSpec(dir);
  await writeFile(path.join(spec, "openrpc", "methods", "ping.yaml"), PING);
  files = await generate(spec);
  await writeOutputs(files, path.join(dir, "out"));
  await writeFile(path.join(dir, "out", "package.json"), '{ "type": "module" }\n');
});
afterAll(async () => cleanup());

/** Type-checks a handlers module against the generated files; returns the diagnostics. */
async function typeCheckHandlers(source: string): Promise<string[]> {
  const file = path.join(dir, "out", "handlers.ts");
  await mkdir(path.dirname(file), { recursive: true });
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

const handlersWith = (methods: string[]) => `import type { RpcHandlers } from "./rpc/methods.js";
const stub = () => null as never;
export const handlers: RpcHandlers<{ requestId: string }> = { ${methods.map((m) => `${m}: stub`).join(", ")} };
`;

describe("adding a method to the spec", () => {
  it("adds it to the method list, handler interface, dispatch table, validators, client and docs", () => {
    const methods = files.get(OUTPUT_PATHS.methods)!;
    expect(methods).toContain('| "ping"');
    expect(methods).toContain("ping: { params: PingParams; result: PingResult }");
    expect(methods).toMatch(/ping: \{\s+name: "ping",/);
    expect(files.get(OUTPUT_PATHS.types)).toContain("export type PingParams = {\n  word: string;\n};");
    expect(files.get(OUTPUT_PATHS.validators)).toContain("ping: compiled.params_ping,");
    expect(files.get(OUTPUT_PATHS.client)).toContain("ping(params: PingParams): Promise<PingResult>;");
    expect(files.get(`${DOCS_DIR}/${docsPaths.method("ping")}`)).toContain("<h1><code>ping</code></h1>");
    expect(files.get(`${DOCS_DIR}/${docsPaths.index}`)).toContain(`href="${docsPaths.method("ping")}"`);
    expect(files.get(`${DOCS_DIR}/${SEARCH_INDEX_FILE}`)).toContain(`["ping","JSON-RPC method","${docsPaths.method("ping")}"`);
  });

  it("makes a handler object without the new method fail to type-check", async () => {
    const missing = await typeCheckHandlers(handlersWith(["block", "health", "lookup", "price"]));
    expect(missing.join("\n")).toMatch(/Property 'ping' is missing/);
    expect(await typeCheckHandlers(handlersWith(["block", "health", "lookup", "price", "ping"]))).toEqual([]);
  });
});
