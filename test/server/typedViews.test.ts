import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Service } from "../../src/server/startService.js";
import { ALICE, BOB, signedTx } from "../chain/runtime/helpers.js";
import { contract } from "../chain/vm/wat.js";
import { rpc, rpcError, rpcResult, startTestService } from "./harness.js";

// Issue 28: nearcore's typed view methods (EXPERIMENTAL_view_account, _view_code, _view_state,
// _view_access_key, _view_access_key_list, _call_function) over real HTTP: the same answers as
// the `query` request type they stand for, and nearcore's typed errors where `query` answers
// the legacy error-as-result. Also the two aliases (light_client_block_proof,
// EXPERIMENTAL_client_config) and status.node_key.
const VIEWS = contract(
  `(import "env" "input" (func $input (param i64)))
   (import "env" "register_len" (func $register_len (param i64) (result i64)))
   (import "env" "read_register" (func $read_register (param i64 i64)))
   (import "env" "value_return" (func $value_return (param i64 i64)))
   (import "env" "log_utf8" (func $log_utf8 (param i64 i64)))
   (import "env" "panic_utf8" (func $panic_utf8 (param i64 i64)))
   (import "env" "storage_write" (func $storage_write (param i64 i64 i64 i64 i64) (result i64)))`,
  `(data (i32.const 0) "echo called")
   (data (i32.const 64) "it broke")
   (data (i32.const 96) "{\\"code\\":7}")
   (data (i32.const 128) "k1v1")
   (func (export "echo")
     (call $input (i64.const 0))
     (call $read_register (i64.const 0) (i64.const 1024))
     (call $log_utf8 (i64.const 11) (i64.const 0))
     (call $value_return (call $register_len (i64.const 0)) (i64.const 1024)))
   (func (export "boom")
     (call $panic_utf8 (i64.const 8) (i64.const 64)))
   (func (export "boom_json")
     (call $panic_utf8 (i64.const 10) (i64.const 96)))
   (func (export "init")
     (drop (call $storage_write (i64.const 2) (i64.const 128) (i64.const 2) (i64.const 130) (i64.const 0))))`,
);

let service: Service;
let url: string;
beforeAll(async () => {
  service = await startTestService({ txTimeoutMs: 5_000, retention: 6 });
  url = service.rpcUrl;
  const deploy = signedTx(service.chain, ALICE, ALICE, [
    { type: "DeployContract", code: VIEWS },
    { type: "FunctionCall", methodName: "init", args: new Uint8Array(), gas: 30_000_000_000_000n, deposit: 0n },
  ]);
  const sent = await rpcResult(url, "send_tx", { signed_tx_base64: Buffer.from(deploy).toString("base64"), wait_until: "FINAL" });
  expect(sent.status).toEqual({ SuccessValue: "" });
});
afterAll(() => service.close());

const b64 = (text: string) => Buffer.from(text).toString("base64");
const at = () => {
  const head = service.chain.head();
  return { block_height: head.height, block_hash: head.hash };
};

describe("typed view methods answer what `query` answers", () => {
  const cases: [string, string, Record<string, unknown>][] = [
    ["EXPERIMENTAL_view_account", "view_account", { account_id: ALICE }],
    ["EXPERIMENTAL_view_code", "view_code", { account_id: ALICE }],
    ["EXPERIMENTAL_view_access_key_list", "view_access_key_list", { account_id: ALICE }],
    ["EXPERIMENTAL_view_state", "view_state", { account_id: ALICE, prefix_base64: "" }],
    ["EXPERIMENTAL_view_state", "view_state", { account_id: ALICE, prefix_base64: b64("k"), include_proof: true }],
    ["EXPERIMENTAL_call_function", "call_function", { account_id: ALICE, method_name: "echo", args_base64: b64('{"a":1}') }],
  ];
  for (const [method, requestType, params] of cases) {
    it(`${method} ${JSON.stringify(params)}`, async () => {
      const reference = { block_id: service.chain.blockByFinality("final").height };
      const typed = await rpcResult(url, method, { ...reference, ...params });
      const legacy = await rpcResult(url, "query", { request_type: requestType, ...reference, ...params });
      expect(typed).toEqual(legacy);
      expect(typed.block_height).toBe(reference.block_id);
    });
  }

  it("EXPERIMENTAL_view_state reads one key-value pair the contract wrote", async () => {
    const result = await rpcResult(url, "EXPERIMENTAL_view_state", { finality: "optimistic", account_id: ALICE, prefix_base64: "" });
    expect(result).toEqual({ values: [{ key: b64("k1"), value: b64("v1") }], ...at() });
  });

  it("EXPERIMENTAL_view_access_key answers an existing key like query", async () => {
    const list = await rpcResult(url, "EXPERIMENTAL_view_access_key_list", { finality: "final", account_id: ALICE });
    const key = list.keys[0];
    const typed = await rpcResult(url, "EXPERIMENTAL_view_access_key", { finality: "final", account_id: ALICE, public_key: key.public_key });
    expect(typed).toEqual({ ...key.access_key, block_height: list.block_height, block_hash: list.block_hash });
  });
});

describe("typed view errors", () => {
  const MISSING_KEY = "ed25519:V4uJBswJxmvGUFmE2EsYLZJ5LsshDWod82EUmRU8tXF";

  it("EXPERIMENTAL_view_access_key: an unknown key is UNKNOWN_ACCESS_KEY, not the legacy result", async () => {
    const { status, error } = await rpcError(url, "EXPERIMENTAL_view_access_key", { finality: "optimistic", account_id: ALICE, public_key: MISSING_KEY });
    expect(status).toBe(200);
    expect(error).toEqual({
      name: "HANDLER_ERROR",
      cause: { name: "UNKNOWN_ACCESS_KEY", info: { public_key: MISSING_KEY, ...at() } },
      code: -32000,
      message: "Server error",
      data: `Access key for public key ${MISSING_KEY} has never been observed on the node`,
    });
    const legacy = await rpcResult(url, "query", { request_type: "view_access_key", finality: "optimistic", account_id: ALICE, public_key: MISSING_KEY });
    expect(legacy.error).toBe(`access key ${MISSING_KEY} does not exist while viewing`);
  });

  const callError = async (method_name: string, account_id = ALICE) =>
    rpcError(url, "EXPERIMENTAL_call_function", { finality: "optimistic", account_id, method_name, args_base64: "" });

  it("EXPERIMENTAL_call_function: a missing method is CONTRACT_EXECUTION_ERROR with the RpcFunctionCallError", async () => {
    const { status, error } = await callError("no_such_method");
    expect(status).toBe(200);
    expect(error).toEqual({
      name: "HANDLER_ERROR",
      cause: { name: "CONTRACT_EXECUTION_ERROR", info: { vm_error: { MethodResolveError: "MethodNotFound" }, ...at() } },
      code: -32000,
      message: "Server error",
      data: "Function call returned an error: MethodResolveError(MethodNotFound)",
    });
  });

  it("EXPERIMENTAL_call_function: a panic keeps its text, a JSON panic message is parsed", async () => {
    const text = await callError("boom");
    expect(text.error.cause.info.vm_error).toEqual({ ExecutionError: "Smart contract panicked: it broke" });
    expect(text.error.data).toBe('Function call returned an error: ExecutionError(String("Smart contract panicked: it broke"))');
    const json = await callError("boom_json");
    expect(json.error.cause.info.vm_error).toEqual({ ExecutionError: { code: 7 } });
    expect(json.error.data).toBe('Function call returned an error: ExecutionError(Object {"code": Number(7)})');
  });

  it("EXPERIMENTAL_call_function: an account without code is CodeDoesNotExist, a missing account UNKNOWN_ACCOUNT", async () => {
    const noCode = await callError("anything", BOB);
    expect(noCode.error.cause.info.vm_error).toEqual({ CompilationError: { CodeDoesNotExist: { account_id: BOB } } });
    expect(noCode.error.data).toBe(`Function call returned an error: CompilationError(CodeDoesNotExist { account_id: AccountId("${BOB}") })`);
    const missing = await callError("anything", "nobody.test.near");
    expect(missing.error.cause).toEqual({ name: "UNKNOWN_ACCOUNT", info: { requested_account_id: "nobody.test.near", ...at() } });
  });

  it("an unknown block is UNKNOWN_BLOCK with the reference in Rust debug notation", async () => {
    const { status, error } = await rpcError(url, "EXPERIMENTAL_view_account", { block_id: 99_999, account_id: ALICE });
    expect(status).toBe(200);
    expect(error).toEqual({
      name: "HANDLER_ERROR",
      cause: { name: "UNKNOWN_BLOCK", info: { block_reference: { block_id: 99_999 } } },
      code: -32000,
      message: "Server error",
      data: "Block either has never been observed on the node or has been garbage collected: BlockId(Height(99999))",
    });
    const hash = "11111111111111111111111111111111";
    const byHash = await rpcError(url, "EXPERIMENTAL_view_code", { block_id: hash, account_id: ALICE });
    expect(byHash.error.data).toBe(`Block either has never been observed on the node or has been garbage collected: BlockId(Hash(${hash}))`);
  });

  it("a garbage-collected block is INTERNAL_ERROR (HTTP 500), as nearcore folds it; the archival listener serves it", async () => {
    for (let i = 0; i < 8; i++) service.chain.produceBlock();
    const genesis = service.chain.genesisBlock;
    const params = { block_id: genesis.height, account_id: ALICE };
    const { status, error } = await rpcError(url, "EXPERIMENTAL_view_account", params);
    const message = `The data for block #${genesis.height} is garbage collected on this node, use an archival node to fetch historical data`;
    expect(status).toBe(500);
    expect(error).toEqual({ name: "INTERNAL_ERROR", cause: { name: "INTERNAL_ERROR", info: { error_message: message } }, code: -32000, message: "Server error", data: message });
    const archived = await rpcResult(service.archivalUrl, "EXPERIMENTAL_view_account", params);
    expect(archived.block_hash).toBe(genesis.hash);
  });
});

describe("aliases and status.node_key", () => {
  it("light_client_block_proof answers what EXPERIMENTAL_light_client_block_proof answers", async () => {
    const head = service.chain.blockByFinality("final");
    const block = service.chain.blockByHeight(head.height - 1)!;
    const params = { block_hash: block.hash, light_client_head: head.hash };
    const stable = await rpcResult(url, "light_client_block_proof", params);
    expect(stable).toEqual(await rpcResult(url, "EXPERIMENTAL_light_client_block_proof", params));
    expect(stable.block_header_lite.inner_lite.height).toBe(block.height);
  });

  it("EXPERIMENTAL_client_config answers what client_config answers", async () => {
    expect(await rpcResult(url, "EXPERIMENTAL_client_config", {})).toEqual(await rpcResult(url, "client_config", {}));
  });

  it("status sends node_key, the validator key", async () => {
    const status = await rpcResult(url, "status", []);
    expect(status.node_key).toBe(status.validator_public_key);
    expect(status.node_key).toBe(service.chain.blockProducer.publicKey);
  });

  it("every new method is known to the dispatcher (no METHOD_NOT_FOUND)", async () => {
    const reply = await rpc(url, "EXPERIMENTAL_view_account", { finality: "final", account_id: ALICE });
    expect(reply.body.error).toBeUndefined();
  });
});
