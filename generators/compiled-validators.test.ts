// The minified standalone validators (generated/*/validators.compiled.js) against Ajv's in-memory
// compile of the same spec: for a table of bad inputs they give the same verdict and the same
// error objects (instancePath, schemaPath, keyword, params, message, schema, parentSchema, data),
// hence the same message the server answers with. And the emitted module is deterministic.

import { beforeAll, describe, expect, it } from "vitest";
import type { ErrorObject } from "ajv";
import * as rpcCompiled from "../generated/rpc/validators.compiled.js";
import * as restCompiled from "../generated/rest/validators.compiled.js";
import { validationMessage } from "../src/server/jsonrpc/validationMessage.js";
import { createRpcAjv, standaloneExportNames } from "./ajv.js";
import { assembleOpenRpc } from "./assemble.js";
import { emitCompiledValidators } from "./emit-compiled-validators.js";
import { FIXTURE_SPEC } from "./fixture.js";
import { DEFAULT_SPEC_ROOT, OUTPUT_PATHS, REST_OUTPUT_PATHS, generate } from "./generate.js";
import { methodModels } from "./method-model.js";
import { assembleOpenApi, operationModels } from "./openapi-assemble.js";
import { createRestAjv } from "./rest-ajv.js";

type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

const account = { request_type: "view_account", finality: "final", account_id: "alice.near" };
const state = { request_type: "view_state", finality: "final", account_id: "kv.near", prefix_base64: "" };
const hash = "6PVKJvzLmWCdhHn2PzF12ivxsNHKZdP47gtNPsUGcdSr";
const signedTx = "DwAAAGFsaWNlLnRlc3QubmVhcgB0NHpU/taET7ZY570prvwxNSrBqauavoi6m1G80IZjnQEAAAAA";

/** [export name, case, bad value]: one or more per keyword the server's error mapping reads. */
const rpcCases: [string, string, unknown][] = [
  ["params_query", "additionalProperties", { ...account, extra: 1 }],
  ["params_query", "discriminator: unknown request_type", { ...account, request_type: "view_nothing" }],
  ["params_query", "discriminator: missing request_type", { finality: "final", account_id: "alice.near" }],
  ["params_query", "oneOf: two block references", { ...account, block_id: 5 }],
  ["params_query", "oneOf: no block reference", { request_type: "view_account", account_id: "alice.near" }],
  ["params_query", "enum: bad finality", { ...account, finality: "latest" }],
  ["params_query", "type: numeric account id", { ...account, account_id: 42 }],
  ["params_query", "pattern: invalid account id", { ...account, account_id: "Alice!" }],
  ["params_query", "required: view_access_key without public_key", { ...account, request_type: "view_access_key" }],
  ["params_query", "minimum: limit 0", { ...state, limit: 0 }],
  ["params_query", "maximum: limit above u32", { ...state, limit: 4294967296 }],
  ["params_query", "type: limit not an integer", { ...state, limit: 1.5 }],
  ["params_query", "not: include_proof with a cursor", { ...state, include_proof: true, after_key_base64: "YQ==" }],
  ["params_query", "type: positional array", ["account/alice.near", ""]],
  ["params_block", "unevaluated or unknown field", { finality: "final", shard: 0 }],
  ["params_block", "negative height", { block_id: -1 }],
  ["params_send_tx", "enum: unknown wait_until", { signed_tx_base64: signedTx, wait_until: "DONE" }],
  ["params_send_tx", "pattern: not base64", { signed_tx_base64: "not base64!" }],
  ["params_tx", "both forms", { tx_hash: hash, sender_account_id: "alice.near", signed_tx_base64: signedTx }],
  ["params_tx", "hash without sender", { tx_hash: hash }],
  ["params_EXPERIMENTAL_receipt", "bad receipt_id", { receipt_id: "x" }],
  ["result_gas_price", "numeric price", { gas_price: 100000000 }],
  ["result_health", "object instead of null", {}],
  ["result_send_tx", "status-only result other than NONE", { final_execution_status: "INCLUDED" }],
];

const restCases: [string, string, unknown][] = [
  ["response_health_200", "required: no status", { block_height: 1 }],
  ["response_health_200", "additionalProperties", { block_height: 1, status: "ok", extra: true }],
  ["response_health_200", "type: string height", { block_height: "1", status: "ok" }],
  ["response_accountFull_400", "const", "Bad argument"],
  ["response_accountFull_429", "const inside an object", { error: "slow_down" }],
  ["response_accountFull_200", "oneOf: state neither object nor null", {
    account_id: "alice.near", block_height: 1, nfts: [], pools: [], tokens: [], state: 5,
  }],
  ["response_accountFull_200", "pattern: invalid account id", {
    account_id: "Alice!", block_height: 1, nfts: [], pools: [], tokens: [], state: null,
  }],
  ["response_ftTop_200", "maxItems", {
    token_id: "ft.near", block_height: 1,
    accounts: Array.from({ length: 101 }, (_, i) => ({ account_id: `a${i}.near`, balance: "1" })),
  }],
];

let rpcInMemory: Record<string, Validate>;
let restInMemory: Record<string, Validate>;

beforeAll(async () => {
  const doc = await assembleOpenRpc(DEFAULT_SPEC_ROOT);
  const { ajv, ids } = createRpcAjv(doc, methodModels(doc), { allErrors: false });
  rpcInMemory = Object.fromEntries(
    Object.entries(standaloneExportNames(ids)).map(([name, id]) => [name, ajv.getSchema(id) as Validate]),
  );
  const restDoc = await assembleOpenApi(DEFAULT_SPEC_ROOT);
  const rest = createRestAjv(restDoc, operationModels(restDoc), { allErrors: false });
  restInMemory = Object.fromEntries(rest.bodies.map((b) => [b.exportName, rest.ajv.getSchema(b.id) as Validate]));
}, 60_000);

function expectSameErrors(emitted: Validate | undefined, inMemory: Validate | undefined, value: unknown): void {
  expect(emitted).toBeTypeOf("function");
  expect(inMemory).toBeTypeOf("function");
  expect(emitted!(value)).toBe(false);
  expect(inMemory!(value)).toBe(false);
  expect(emitted!.errors).toEqual(inMemory!.errors);
  expect(emitted!.errors!.length).toBeGreaterThan(0);
  expect(validationMessage(emitted!.errors)).toBe(validationMessage(inMemory!.errors));
}

describe("the minified compiled validators", () => {
  it.each(rpcCases)("give Ajv's in-memory errors for JSON-RPC %s (%s)", (name, _case, value) => {
    expectSameErrors((rpcCompiled as Record<string, Validate>)[name], rpcInMemory[name], value);
  });

  it.each(restCases)("give Ajv's in-memory errors for REST %s (%s)", (name, _case, value) => {
    expectSameErrors((restCompiled as Record<string, Validate>)[name], restInMemory[name], value);
  });

  it("say what the server says for a few of them", () => {
    const query = (rpcCompiled as Record<string, Validate>).params_query!;
    query({ ...account, extra: 1 });
    expect(validationMessage(query.errors)).toBe("unknown field `extra` in params");
    query({ ...state, include_proof: true, limit: 5 });
    expect(validationMessage(query.errors)).toBe("include_proof cannot be combined with pagination (after_key_base64 or limit)");
    query({ ...state, limit: 0 });
    expect(validationMessage(query.errors)).toBe("invalid value: integer `0`, expected a nonzero u32");
  });

  it("export exactly the in-memory schemas", () => {
    expect(Object.keys(rpcCompiled).sort()).toEqual(Object.keys(rpcInMemory).sort());
    expect(Object.keys(restCompiled).sort()).toEqual(Object.keys(restInMemory).sort());
  });

  it("are emitted deterministically: same bytes from two fresh Ajv instances and two generate runs", async () => {
    const doc = await assembleOpenRpc(FIXTURE_SPEC);
    const emit = async () => {
      const { ajv, ids } = createRpcAjv(doc, methodModels(doc), { allErrors: false, standalone: true });
      const names = standaloneExportNames(ids);
      const typeOf = Object.fromEntries(Object.keys(names).map((name) => [name, "unknown"]));
      return emitCompiledValidators(ajv, names, "// banner", { imports: [], typeOf });
    };
    const [first, second] = [await emit(), await emit()];
    expect(second).toEqual(first);
    const [a, b] = [await generate(FIXTURE_SPEC), await generate(FIXTURE_SPEC)];
    for (const file of [OUTPUT_PATHS.compiledValidators, REST_OUTPUT_PATHS.compiledValidators]) {
      expect(b.get(file)).toBe(a.get(file));
      expect(a.get(file)!.length).toBeGreaterThan(0);
    }
  }, 60_000);
});
