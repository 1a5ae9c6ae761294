// The generated standalone validators (generated/rpc/validators.ts) against the real spec:
// every example passes, and table-driven bad inputs fail.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  validateErrorData,
  validateErrorInfo,
  validateParams,
  validateResult,
} from "../generated/rpc/validators.js";
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
const pk = "ed25519:8pchsMqQRdU75ZfzgT4qb8xEvS8uqtgXedbumJEkizEp";
const signedTx = "DwAAAGFsaWNlLnRlc3QubmVhcgB0NHpU/taET7ZY570prvwxNSrBqauavoi6m1G80IZjnQEAAAAA";
const byHash = { tx_hash: hash, sender_account_id: "alice.near" };

/** A deep copy of one example result of a method, to derive bad results from. */
function exampleResult(method: RpcMethodName, index = 0): Record<string, unknown> {
  const found = examples.filter((e) => e.method === method)[index];
  if (!found) throw new Error(`no example ${index} for ${method}`);
  return JSON.parse(JSON.stringify(found.result)) as Record<string, unknown>;
}

/** send_tx's first example (a full outcome) with one change applied. */
function txResult(change: (r: any) => void): Record<string, unknown> {
  const result = exampleResult("send_tx");
  change(result);
  return result;
}

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
  ["query", "view_state limit above 10000 (nearcore clamps it)", { ...state, limit: 4294967295 }],
  ["query", "view_state null limit and cursor (not set)", { ...state, limit: null, after_key_base64: null }],
  ["query", "view_state include_proof with null limit and cursor", { ...state, include_proof: true, limit: null, after_key_base64: null }],
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
  ["send_tx", "no wait_until", { signed_tx_base64: signedTx }],
  ["send_tx", "wait_until NONE", { signed_tx_base64: signedTx, wait_until: "NONE" }],
  ["broadcast_tx_async", "by name", { signed_tx_base64: signedTx }],
  ["broadcast_tx_commit", "wait_until (ignored)", { signed_tx_base64: signedTx, wait_until: "FINAL" }],
  ["tx", "by hash", byHash],
  ["tx", "by hash with wait_until", { ...byHash, wait_until: "INCLUDED_FINAL" }],
  ["tx", "by signed transaction", { signed_tx_base64: signedTx, wait_until: "NONE" }],
  ["EXPERIMENTAL_tx_status", "by hash", byHash],
  ["EXPERIMENTAL_receipt", "receipt id", { receipt_id: hash }],
];

const rejectedParams: [RpcMethodName, string, unknown][] = [
  ["query", "unknown field", { ...account, extra: 1 }],
  ["query", "field of another variant", { ...account, public_key: key }],
  ["query", "unknown request_type", { ...account, request_type: "view_global_contract_code" }],
  ["query", "call_function without method_name", { ...account, request_type: "call_function", args_base64: "" }],
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
  ["query", "limit above u32", { ...state, limit: 4294967296 }],
  ["query", "an invalid account id (nearcore refuses it while parsing)", { ...account, account_id: "Alice!" }],
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
  ["send_tx", "no transaction", { wait_until: "NONE" }],
  ["send_tx", "unknown wait_until", { signed_tx_base64: signedTx, wait_until: "DONE" }],
  ["send_tx", "lower-case wait_until", { signed_tx_base64: signedTx, wait_until: "final" }],
  ["send_tx", "not base64", { signed_tx_base64: "not base64!" }],
  ["send_tx", "positional (must be normalised first)", [signedTx]],
  ["broadcast_tx_async", "unknown field", { signed_tx_base64: signedTx, finality: "final" }],
  ["tx", "both forms", { ...byHash, signed_tx_base64: signedTx }],
  ["tx", "hash without sender", { tx_hash: hash }],
  ["tx", "sender without hash", { sender_account_id: "alice.near" }],
  ["tx", "invalid sender", { ...byHash, sender_account_id: "Alice!" }],
  ["tx", "hash not base58", { ...byHash, tx_hash: "0OIl" }],
  ["tx", "nothing", {}],
  ["tx", "positional (must be normalised first)", [hash, "alice.near"]],
  ["EXPERIMENTAL_tx_status", "unknown field", { ...byHash, fetch_receipt: true }],
  ["EXPERIMENTAL_receipt", "missing receipt_id", {}],
  ["EXPERIMENTAL_receipt", "bad receipt_id", { receipt_id: "x" }],
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
  ["send_tx", "status-only result other than NONE", { final_execution_status: "INCLUDED" }],
  ["send_tx", "NONE with an extra field", { final_execution_status: "NONE", status: "NotStarted" }],
  ["send_tx", "outcome without final_execution_status", txResult((r) => delete r.final_execution_status)],
  ["send_tx", "outcome with receipts", txResult((r) => (r.receipts = []))],
  ["send_tx", "gas_burnt as string", txResult((r) => (r.transaction_outcome.outcome.gas_burnt = "1"))],
  [
    "send_tx",
    "numeric gas_used in a profile",
    txResult((r) => {
      r.receipts_outcome[0].outcome.metadata.gas_profile = [
        { cost_category: "ACTION_COST", cost: "BASE", gas_used: 1 },
      ];
    }),
  ],
  ["send_tx", "missing metadata", txResult((r) => delete r.transaction_outcome.outcome.metadata)],
  ["send_tx", "priority_fee other than 0", txResult((r) => (r.transaction.priority_fee = 1))],
  [
    "send_tx",
    "CreateAccount as an object in a view",
    txResult((r) => (r.transaction.actions = [{ CreateAccount: {} }])),
  ],
  [
    "send_tx",
    "two actions in one object",
    txResult(
      (r) => (r.transaction.actions = [{ Transfer: { deposit: "1" }, DeleteKey: { public_key: pk } }]),
    ),
  ],
  ["send_tx", "unknown final status", txResult((r) => (r.status = "Done"))],
  [
    "send_tx",
    "unknown InvalidTxError variant",
    txResult((r) => (r.status = { Failure: { InvalidTxError: { NonceReused: {} } } })),
  ],
  [
    "send_tx",
    "ActionError without index",
    txResult((r) => (r.status = { Failure: { ActionError: { kind: "DelegateActionExpired" } } })),
  ],
  [
    "send_tx",
    "bad merkle direction",
    txResult((r) => (r.receipts_outcome[0].proof = [{ direction: "Up", hash }])),
  ],
  ["broadcast_tx_async", "an outcome instead of the hash", { final_execution_status: "NONE" }],
  [
    "EXPERIMENTAL_receipt",
    "receipt with two kinds",
    { ...exampleResult("EXPERIMENTAL_receipt"), receipt: { Action: {}, Data: {} } },
  ],
  [
    "EXPERIMENTAL_receipt",
    "receipt without priority",
    (({ priority: _priority, ...rest }) => rest)(exampleResult("EXPERIMENTAL_receipt")),
  ],
];

const actionError = (index: number | null, kind: unknown) => ({ ActionError: { index, kind } });

/** Failures the closed unions list and the open ones (OpenErrorVariant) let through. */
const acceptedFailures: [string, unknown][] = [
  ["an InvalidTxError unit variant", { InvalidTxError: "Expired" }],
  ["a nested access key error", { InvalidTxError: { InvalidAccessKeyError: "RequiresFullAccess" } }],
  [
    "a gas-key InvalidTxError",
    { InvalidTxError: { InvalidNonceIndex: { tx_nonce_index: null, num_nonces: 4 } } },
  ],
  [
    "a contract panic",
    actionError(0, { FunctionCallError: { ExecutionError: "Smart contract panicked: no" } }),
  ],
  [
    "a missing contract",
    actionError(0, {
      FunctionCallError: { CompilationError: { CodeDoesNotExist: { account_id: "a.near" } } },
    }),
  ],
  [
    "a host error nearcore may add later",
    actionError(1, { FunctionCallError: { HostError: { Future: { x: 1 } } } }),
  ],
  ["a unit host error", actionError(null, { FunctionCallError: { HostError: "GasExceeded" } })],
  ["a wasm trap", actionError(0, { FunctionCallError: { WasmTrap: "Unreachable" } })],
  [
    "a delegate key error",
    actionError(0, {
      DelegateActionAccessKeyError: { AccessKeyNotFound: { account_id: "a.near", public_key: pk } },
    }),
  ],
  [
    "a storage error",
    { InvalidTxError: { StorageError: { MissingTrieValue: { context: "TrieStorage", hash } } } },
  ],
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

  it.each(acceptedFailures)("accept a Failure status: %s", (_name, failure) => {
    const validate = validateResult.tx;
    expect(
      validate(txResult((r) => (r.status = { Failure: failure }))),
      JSON.stringify(validate.errors),
    ).toBe(true);
  });

  it("reject an open error value with two keys", () => {
    const failure = actionError(0, { FunctionCallError: { HostError: { A: 1, B: 2 } } });
    expect(validateResult.tx(txResult((r) => (r.status = { Failure: failure })))).toBe(false);
  });

  it("validate structured error data per cause", () => {
    const nonce = { TxExecutionError: { InvalidTxError: { InvalidNonce: { tx_nonce: 6, ak_nonce: 20 } } } };
    expect(validateErrorData.INVALID_TRANSACTION?.(nonce)).toBe(true);
    expect(validateErrorData.INVALID_TRANSACTION?.({ InvalidTxError: "Expired" })).toBe(false);
    const actionFailure = { TxExecutionError: actionError(0, "DelegateActionExpired") };
    expect(validateErrorData.INVALID_TRANSACTION?.(actionFailure)).toBe(false);
    expect(validateErrorData.UNKNOWN_RECEIPT?.({ name: "UNKNOWN_RECEIPT", info: { receipt_id: hash } })).toBe(
      true,
    );
    expect(validateErrorData.UNKNOWN_RECEIPT?.(`Receipt with id ${hash} has never been observed`)).toBe(
      false,
    );
    expect(validateErrorData.UNKNOWN_ACCOUNT).toBeNull();
    expect(validateErrorInfo.INVALID_TRANSACTION?.({})).toBe(true);
    expect(validateErrorInfo.INVALID_TRANSACTION?.({ context: "x" })).toBe(false);
    expect(validateErrorInfo.UNKNOWN_TRANSACTION?.({ requested_transaction_hash: hash })).toBe(true);
    expect(validateErrorInfo.INTERNAL_ERROR?.({ debug_info: "x" })).toBe(false);
    expect(validateErrorInfo.TIMEOUT_ERROR).toBeNull();
    expect(validateErrorInfo.DOES_NOT_TRACK_SHARD).toBeNull();
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
