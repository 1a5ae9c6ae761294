// The client package's generated sources: x-result-by-variant read and checked into the method
// model, the query overloads emitted from it, and `generate --client-out` / `--check` over the
// package directory.

import { readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assembleOpenRpc } from "./assemble.js";
import { generateCommand } from "./commands.js";
import { emitClient } from "./emit-client.js";
import { errorClassName } from "./emit-client-package.js";
import { FIXTURE_SPEC, tempDir } from "./fixture.js";
import { DEFAULT_SPEC_ROOT } from "./generate.js";
import { methodModel, methodModels } from "./method-model.js";
import type { OpenRpcDocument } from "./openrpc-model.js";

let doc: OpenRpcDocument;
beforeAll(async () => {
  doc = await assembleOpenRpc(DEFAULT_SPEC_ROOT);
});
const query = () => structuredClone(doc.methods.find((m) => m.name === "query")!);
const ref = (name: string) => `#/components/schemas/${name}`;

describe("x-result-by-variant", () => {
  it("gives query one result list per request_type", () => {
    const model = methodModel(doc, query());
    expect(Object.fromEntries(model.resultByVariant.map((v) => [v.tag, v.typeNames]))).toEqual({
      view_account: ["ViewAccountResult"],
      view_access_key: ["ViewAccessKeyResult", "QueryErrorResult"],
      view_access_key_list: ["ViewAccessKeyListResult"],
      view_state: ["ViewStateResult"],
      view_code: ["ViewCodeResult"],
      call_function: ["CallFunctionResult", "QueryErrorResult"],
      view_global_contract_code: ["ViewCodeResult"],
      view_global_contract_code_by_account_id: ["ViewCodeResult"],
      view_gas_key_nonces: ["ViewGasKeyNoncesResult"],
    });
  });

  it("refuses a missing variant, an unknown variant and a result outside the oneOf", () => {
    const missing = query();
    delete missing["x-result-by-variant"]!.view_code;
    expect(() => methodModel(doc, missing)).toThrow(/x-result-by-variant has no entry for view_code/);
    const extra = query();
    extra["x-result-by-variant"]!.view_everything = [ref("ViewAccountResult")];
    expect(() => methodModel(doc, extra)).toThrow(/names view_everything, which are not params variants/);
    const foreign = query();
    foreign["x-result-by-variant"]!.view_state = [ref("BlockView")];
    expect(() => methodModel(doc, foreign)).toThrow(/view_state: #\/components\/schemas\/BlockView is not a member of the result oneOf/);
  });

  it("emits one query overload per variant before the general signature", () => {
    const client = emitClient(methodModels(doc), "// banner");
    const overloads = [...client.matchAll(/^\s*query\(params: (\w+)\): Promise<([^>]+)>;$/gm)].map((m) => [m[1], m[2]]);
    expect(overloads).toEqual([
      ["ViewAccountParams", 'QueryResultByRequestType["view_account"]'],
      ["ViewAccessKeyParams", 'QueryResultByRequestType["view_access_key"]'],
      ["ViewAccessKeyListParams", 'QueryResultByRequestType["view_access_key_list"]'],
      ["ViewStateParams", 'QueryResultByRequestType["view_state"]'],
      ["ViewCodeParams", 'QueryResultByRequestType["view_code"]'],
      ["CallFunctionParams", 'QueryResultByRequestType["call_function"]'],
      ["ViewGlobalContractCodeParams", 'QueryResultByRequestType["view_global_contract_code"]'],
      ["ViewGlobalContractCodeByAccountIdParams", 'QueryResultByRequestType["view_global_contract_code_by_account_id"]'],
      ["ViewGasKeyNoncesParams", 'QueryResultByRequestType["view_gas_key_nonces"]'],
      ["QueryParams", "QueryResult"],
    ]);
    expect(client).toMatch(/view_access_key: ViewAccessKeyResult \| QueryErrorResult;/);
  });

  it("names the error classes after their causes", () => {
    expect(errorClassName("UNKNOWN_ACCOUNT")).toBe("UnknownAccountError");
    expect(errorClassName("PARSE_ERROR")).toBe("ParseError");
    expect(errorClassName("TIMEOUT_ERROR")).toBe("TimeoutError");
  });
});

describe("generate --client-out", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir("client-out"));
  });
  afterEach(async () => cleanup());

  it("writes the package sources, and --check fails on a stale one", async () => {
    const printed: string[] = [];
    const output = { log: (m: string) => printed.push(m), error: (m: string) => printed.push(m) };
    const args = ["--spec", FIXTURE_SPEC, "--out", path.join(dir, "generated"), "--client-out", path.join(dir, "client")];
    expect(await generateCommand(args, output)).toBe(0);
    const classes = path.join(dir, "client", "rpc", "errorClasses.ts");
    expect(await readFile(classes, "utf8")).toMatch(/export class UnknownBlockError extends RpcResponseError<"UNKNOWN_BLOCK"> \{\n  override readonly name = "UnknownBlockError";\n\}/);
    // The package holds its own copies of the generated files it is built from, so it compiles alone.
    expect(await readFile(classes, "utf8")).toContain('import type { RpcErrorCauseName } from "./errors.js";');
    for (const copied of ["rpc/types.ts", "rpc/errors.ts", "rpc/client.ts"]) {
      expect(await readFile(path.join(dir, "client", copied), "utf8")).toBe(await readFile(path.join(dir, "generated", copied), "utf8"));
    }
    expect(await generateCommand(["--check", ...args], output)).toBe(0);
    await writeFile(classes, "stale\n");
    printed.length = 0;
    expect(await generateCommand(["--check", ...args], output)).toBe(1);
    expect(printed.join("\n")).toMatch(/stale: +\S*client\/rpc\/errorClasses\.ts/);
  });
});
