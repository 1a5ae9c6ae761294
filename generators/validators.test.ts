// The generated standalone validators (generated/rpc/validators.ts) against the real spec:
// every example passes, and table-driven bad inputs fail.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { validateErrorInfo, validateParams, validateResult } from "../generated/rpc/validators.js";
import { rpcMethodNames, type RpcMethodName } from "../generated/rpc/methods.js";
import type { OpenRpcDocument } from "./openrpc-model.js";

const doc = JSON.parse(
  readFileSync(new URL("../generated/openrpc.json", import.meta.url), "utf8"),
) as OpenRpcDocument;

const examples = doc.methods.flatMap((method) =>
  (method.examples ?? []).map((example) => ({
    method: method.name as RpcMethodName,
    name: example.name,
    params: Object.fromEntries(example.params.map((p) => [p.name, p.value])),
    result: example.result?.value,
  })),
);

const account = { request_type: "view_account", finality: "final", account_id: "alice.near" };
const state = { request_type: "view_state", finality: "final", account_id: "kv.near", prefix_base64: "" };
const key = "ed25519:EEw3eWXGozVkx7BS9VRnsJ1vCV1Ro4Zd8jL3hPUkGAg9";
const hash = "6PVKJvzLmWCdhHn2PzF12ivxsNHKZdP47gtNPsUGcdSr";

const acceptedParams: [RpcMethodName, string, unknown][] = [
  ["query", "view_account by height", { ...account, finality: undefined, block_id: 7 }],
  [
    "query",
    "view_account by hash",
    { request_type: "view_account", block_id: hash, account_id: "alice.near" },
  ],
  [
    "query",
    "sync_checkpoint",
    { request_type: "view_account", sync_checkpoint: "genesis", account_id: "alice.near" },
  ],
  ["query", "view_state paginated", { ...state, after_key_base64: "YQ==", limit: 10000 }],
  ["query", "view_state include_proof false with limit", { ...state, include_proof: false, limit: 5 }],
  ["query", "view_state with proof", { ...state, include_proof: true }],
  ["query", "an invalid account id (the handler answers INVALID_ACCOUNT)", { ...account, account_id: "Alice!" }],
  [
    "query",
    "cursor outside the prefix (a handler rule)",
    { ...state, prefix_base64: "YQ==", after_key_base64: "Yg==" },
  ],
  [
    "query",
    "view_access_key_list",
    { request_type: "view_access_key_list", finality: "optimistic", account_id: "a.near" },
  ],
  ["block", "near-final", { finality: "near-final" }],
  ["gas_price", "no block", {}],
  ["status", "empty object", {}],
];

const rejectedParams: [RpcMethodName, string, unknown][] = [
  ["query", "unknown field", { ...account, extra: 1 }],
  ["query", "field of another variant", { ...account, public_key: key }],
  ["query", "unknown request_type", { ...account, request_type: "call_function" }],
  ["query", "missing request_type", { finality: "final", account_id: "alice.near" }],
  ["query", "two block references", { ...account, block_id: 5 }],
  ["query", "no block reference", { request_type: "view_account", account_id: "alice.near" }],
  [
    "query",
    "finality name as block_id",
    { request_type: "view_account", block_id: "final", account_id: "a.near" },
  ],
  ["query", "bad finality", { ...account, finality: "latest" }],
  ["query", "non-string account id", { ...account, account_id: 42 }],
  ["query", "view_access_key without public_key", { ...account, request_type: "view_access_key" }],
  ["query", "bad public key", { ...account, request_type: "view_access_key", public_key: "ed25519" }],
  [
    "query",
    "view_state without prefix",
    { request_type: "view_state", finality: "final", account_id: "kv.near" },
  ],
  ["query", "prefix not base64", { ...state, prefix_base64: "not base64!" }],
  ["query", "limit 0", { ...state, limit: 0 }],
  ["query", "limit above 10000", { ...state, limit: 10001 }],
  ["query", "limit not an integer", { ...state, limit: 1.5 }],
  ["query", "include_proof with limit", { ...state, include_proof: true, limit: 5 }],
  ["query", "include_proof with after_key", { ...state, include_proof: true, after_key_base64: "YQ==" }],
  ["query", "include_proof not boolean", { ...state, include_proof: "yes" }],
  ["query", "positional form (must be normalised first)", ["account/alice.near", ""]],
  ["block", "empty", {}],
  ["block", "unknown field", { finality: "final", shard: 0 }],
  ["block", "negative height", { block_id: -1 }],
  ["gas_price", "unknown field", { block_id: null, finality: "final" }],
  ["gas_price", "string height", { block_id: "12" }],
  ["status", "any param", { verbose: true }],
  ["health", "null params (normalise to {})", null],
  ["rpc.discover", "array params", []],
];

const rejectedResults: [RpcMethodName, string, unknown][] = [
  ["query", "legacy error with logs", { error: "x", logs: ["a"], block_height: 1, block_hash: hash }],
  [
    "query",
    "account missing block_hash",
    { amount: "1", locked: "0", code_hash: hash, storage_usage: 1, storage_paid_at: 0, block_height: 1 },
  ],
  ["query", "view_state with extra field", { values: [], block_height: 1, block_hash: hash, proofs: [] }],
  [
    "query",
    "state item with per-item proof",
    { values: [{ key: "", value: "", proof: [] }], block_height: 1, block_hash: hash },
  ],
  [
    "query",
    "balance as number",
    {
      amount: 1,
      locked: "0",
      code_hash: hash,
      storage_usage: 1,
      storage_paid_at: 0,
      block_height: 1,
      block_hash: hash,
    },
  ],
  [
    "query",
    "access key with unknown field",
    { nonce: 1, permission: "FullAccess", block_height: 1, block_hash: hash, extra: true },
  ],
  [
    "query",
    "permission both variants",
    { nonce: 1, permission: { FullAccess: {} }, block_height: 1, block_hash: hash },
  ],
  ["gas_price", "numeric price", { gas_price: 100000000 }],
  ["health", "object", {}],
  ["rpc.discover", "string", "openrpc"],
];

describe("generated validators", () => {
  it("cover every method", () => {
    expect(Object.keys(validateParams).sort()).toEqual([...rpcMethodNames].sort());
    expect(Object.keys(validateResult).sort()).toEqual([...rpcMethodNames].sort());
  });

  it.each(examples)("accept example $method/$name", ({ method, params, result }) => {
    const params_ = validateParams[method];
    expect(params_(params), JSON.stringify(params_.errors)).toBe(true);
    const result_ = validateResult[method];
    expect(result_(result), JSON.stringify(result_.errors)).toBe(true);
  });

  it.each(acceptedParams)("accept %s params: %s", (method, _name, params) => {
    const validate = validateParams[method];
    expect(validate(JSON.parse(JSON.stringify(params))), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each(rejectedParams)("reject %s params: %s", (method, _name, params) => {
    const validate = validateParams[method];
    expect(validate(params)).toBe(false);
    expect(validate.errors?.length).toBeGreaterThan(0);
  });

  it.each(rejectedResults)("reject %s result: %s", (method, _name, result) => {
    expect(validateResult[method](result)).toBe(false);
  });

  it("validate error info per cause", () => {
    expect(
      validateErrorInfo.UNKNOWN_ACCOUNT?.({
        requested_account_id: "a.near",
        block_height: 1,
        block_hash: hash,
      }),
    ).toBe(true);
    expect(validateErrorInfo.UNKNOWN_ACCOUNT?.({ requested_account_id: "a.near" })).toBe(false);
    expect(validateErrorInfo.UNKNOWN_BLOCK?.({})).toBe(true);
    expect(validateErrorInfo.UNKNOWN_BLOCK?.({ block_reference: { block_id: 5 } })).toBe(true);
    expect(validateErrorInfo.UNKNOWN_BLOCK?.({ block_reference: { block_id: 5, finality: "final" } })).toBe(
      false,
    );
    expect(validateErrorInfo.NO_SYNCED_BLOCKS).toBeNull();
  });

  it("report the first failure with a JSON pointer", () => {
    const validate = validateParams.query;
    expect(validate({ ...state, limit: 0 })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ instancePath: "/limit", keyword: "minimum" });
  });
});
