import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Service } from "../../../src/server/startService.js";
import { ALICE } from "../../chain/runtime/helpers.js";
import { post, rpcError, rpcResult, startTestService } from "../harness.js";

// Issue 28: the unknown-field rule of each method, over real HTTP. nearcore's request types are
// not deny_unknown_fields, so every nearcore method ignores an undeclared params field
// (x-unknown-params: ignore); shardkit's own methods refuse it (deny). Names of JavaScript
// object built-ins are never taken as fields.

let service: Service;
let url: string;
beforeAll(async () => {
  service = await startTestService();
  url = service.rpcUrl;
  for (let i = 0; i < 3; i++) service.chain.produceBlock();
});
afterAll(() => service.close());

/** The raw JSON text, so `__proto__` reaches the server as an own key, as a client would send it. */
async function rawCall(method: string, paramsJson: string): Promise<any> {
  const reply = await post(url, `{"jsonrpc":"2.0","id":1,"method":"${method}","params":${paramsJson}}`);
  return { status: reply.status, body: JSON.parse(reply.text) };
}

const VIEW = { request_type: "view_account", finality: "final", account_id: ALICE };

describe("methods nearcore has ignore undeclared params fields", () => {
  it("query: an unknown field and a field of another request type change nothing", async () => {
    const plain = await rpcResult(url, "query", VIEW);
    expect(await rpcResult(url, "query", { ...VIEW, x: 1 })).toEqual(plain);
    expect(await rpcResult(url, "query", { ...VIEW, public_key: "ed25519:V4uJBswJxmvGUFmE2EsYLZJ5LsshDWod82EUmRU8tXF", limit: 5 })).toEqual(plain);
  });

  it("EXPERIMENTAL_view_state ignores the paging fields nearcore's request type does not have", async () => {
    const params = { finality: "final", account_id: ALICE, prefix_base64: "" };
    const plain = await rpcResult(url, "EXPERIMENTAL_view_state", params);
    expect(await rpcResult(url, "EXPERIMENTAL_view_state", { ...params, limit: 1, after_key_base64: "AA==" })).toEqual(plain);
  });

  it.each([
    ["status", {}],
    ["block", { finality: "final" }],
    ["gas_price", { block_id: null }],
    ["EXPERIMENTAL_genesis_config", {}],
  ])("%s answers the same with an extra field", async (method, params) => {
    const plain = await rpcResult(url, method, params);
    const extra = await rpcResult(url, method, { ...params, unknown_field_x: [1, 2] });
    if (method === "status") expect(extra.sync_info).toEqual(plain.sync_info);
    else expect(extra).toEqual(plain);
  });

  it.each(["constructor", "__proto__", "toString", "hasOwnProperty"])("`%s` at the top level is dropped like any unknown field", async (name) => {
    const plain = await rpcResult(url, "query", VIEW);
    // A `__proto__` naming another account must not change which account is read.
    const reply = await rawCall("query", `{"request_type":"view_account","finality":"final","account_id":"${ALICE}","${name}":{"account_id":"bob.test.near"}}`);
    expect(reply.status).toBe(200);
    expect(reply.body.result).toEqual(plain);
  });

  it("still refuses a declared field with a wrong value", async () => {
    const { status, error } = await rpcError(url, "query", { ...VIEW, finality: "latest", x: 1 });
    expect(status).toBe(400);
    expect(error.cause.name).toBe("PARSE_ERROR");
  });
});

describe("undeclared fields that are refused", () => {
  it("shardkit's own methods (x-unknown-params: deny) refuse an unknown field", async () => {
    const { status, error } = await rpcError(url, "shardkit_snapshot", { x: 1 });
    expect(status).toBe(400);
    expect(error.data).toBe("Failed parsing args: unknown field `x` in params");
  });

  it.each(["constructor", "__proto__", "toString"])("shardkit's own methods refuse `%s` too", async (name) => {
    const reply = await rawCall("shardkit_snapshot", `{"${name}":1}`);
    expect(reply.status).toBe(400);
    expect(reply.body.error.data).toBe(`Failed parsing args: unknown field \`${name}\` in params`);
  });

  it("ignores an undeclared field inside a nested object, including a built-in name, as nearcore's serde types do", async () => {
    const key = { account_id: ALICE, public_key: "ed25519:V4uJBswJxmvGUFmE2EsYLZJ5LsshDWod82EUmRU8tXF" };
    const base = { changes_type: "single_access_key_changes", finality: "final" };
    const plain = await rpcResult(url, "EXPERIMENTAL_changes", { ...base, keys: [key, key] });
    expect(plain).toMatchObject({ changes: [] });
    expect(await rpcResult(url, "EXPERIMENTAL_changes", { ...base, keys: [{ ...key, x: 1 }, { ...key, y: [2], z: null }] })).toEqual(plain);
    const builtin = await rawCall(
      "EXPERIMENTAL_changes",
      `{"changes_type":"single_access_key_changes","finality":"final","keys":[{"account_id":"${key.account_id}","public_key":"${key.public_key}","constructor":1,"__proto__":{"a":1}}]}`,
    );
    expect(builtin.status).toBe(200);
    expect(builtin.body.result).toMatchObject({ changes: [] });
    // A declared nested field with a wrong value is still refused, beside an ignored one.
    const wrong = await rpcError(url, "EXPERIMENTAL_changes", { ...base, keys: [{ ...key, x: 1, public_key: "not-a-key" }] });
    expect(wrong.status).toBe(400);
    expect(wrong.error.cause.name).toBe("PARSE_ERROR");
  });
});
