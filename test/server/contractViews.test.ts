import { createHash } from "node:crypto";
import { JsonRpcProvider } from "@near-js/providers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base58Encode } from "@shardkit/primitives/base58";
import type { Service } from "../../src/server/startService.js";
import { ALICE, BOB, signedTx } from "../chain/runtime/helpers.js";
import { contract } from "../chain/vm/wat.js";
import { rpc, rpcError, rpcResult, startTestService } from "./harness.js";

// query call_function and view_code over real HTTP, against a WAT contract deployed with a
// signed DeployContract transaction sent through send_tx.
const VIEWS = contract(
  `(import "env" "input" (func $input (param i64)))
   (import "env" "register_len" (func $register_len (param i64) (result i64)))
   (import "env" "read_register" (func $read_register (param i64 i64)))
   (import "env" "value_return" (func $value_return (param i64 i64)))
   (import "env" "log_utf8" (func $log_utf8 (param i64 i64)))
   (import "env" "panic_utf8" (func $panic_utf8 (param i64 i64)))`,
  `(data (i32.const 0) "echo called")
   (data (i32.const 32) "\\"shardkit\\"")
   (data (i32.const 64) "it broke")
   (data (i32.const 96) "about to fail")
   (func (export "echo")
     (call $input (i64.const 0))
     (call $read_register (i64.const 0) (i64.const 1024))
     (call $log_utf8 (i64.const 11) (i64.const 0))
     (call $value_return (call $register_len (i64.const 0)) (i64.const 1024)))
   (func (export "name")
     (call $value_return (i64.const 10) (i64.const 32)))
   (func (export "boom")
     (call $log_utf8 (i64.const 13) (i64.const 96))
     (call $panic_utf8 (i64.const 8) (i64.const 64)))`,
);
const CODE_HASH = base58Encode(createHash("sha256").update(VIEWS).digest());

let service: Service;
let url: string;
beforeAll(async () => {
  service = await startTestService({ txTimeoutMs: 5_000 });
  url = service.rpcUrl;
  const deploy = signedTx(service.chain, ALICE, ALICE, [{ type: "DeployContract", code: VIEWS }]);
  const sent = await rpcResult(url, "send_tx", { signed_tx_base64: Buffer.from(deploy).toString("base64"), wait_until: "FINAL" });
  expect(sent.status).toEqual({ SuccessValue: "" });
});
afterAll(() => service.close());

const b64 = (text: string) => Buffer.from(text).toString("base64");
const call = (method_name: string, args = "", account_id = ALICE) =>
  ({ request_type: "call_function", finality: "optimistic", account_id, method_name, args_base64: b64(args) }) as const;
const at = () => {
  const head = service.chain.head();
  return { block_height: head.height, block_hash: head.hash };
};

describe("query view_code", () => {
  it("returns the deployed wasm and its hash, which is the account's code_hash", async () => {
    const result = await rpcResult(url, "query", { request_type: "view_code", finality: "final", account_id: ALICE });
    const final = service.chain.blockByFinality("final");
    expect(result).toEqual({ code_base64: Buffer.from(VIEWS).toString("base64"), hash: CODE_HASH, block_height: final.height, block_hash: final.hash });
    const account = await rpcResult(url, "query", { request_type: "view_account", finality: "final", account_id: ALICE });
    expect(account.code_hash).toBe(CODE_HASH);
  });

  it("answers NO_CONTRACT_CODE for an account without code, UNKNOWN_ACCOUNT for a missing one", async () => {
    const noCode = await rpcError(url, "query", { request_type: "view_code", finality: "optimistic", account_id: BOB });
    expect(noCode.status).toBe(200);
    expect(noCode.error).toEqual({
      name: "HANDLER_ERROR",
      cause: { name: "NO_CONTRACT_CODE", info: { contract_account_id: BOB, ...at() } },
      code: -32000,
      message: "Server error",
      data: `Contract code for contract ID #${BOB} has never been observed on the node`,
    });
    const missing = await rpcError(url, "query", { request_type: "view_code", finality: "optimistic", account_id: "nobody.test.near" });
    expect(missing.error.cause).toEqual({ name: "UNKNOWN_ACCOUNT", info: { requested_account_id: "nobody.test.near", ...at() } });
  });

  it("serves the legacy [\"code/<id>\", \"\"] path at the optimistic head", async () => {
    expect(await rpcResult(url, "query", [`code/${ALICE}`, ""])).toEqual({ code_base64: Buffer.from(VIEWS).toString("base64"), hash: CODE_HASH, ...at() });
  });
});

describe("query call_function", () => {
  it("returns the method's bytes as a JSON array of numbers, with its logs", async () => {
    expect(await rpcResult(url, "query", call("echo", '{"x":1}'))).toEqual({ result: [...Buffer.from('{"x":1}')], logs: ["echo called"], ...at() });
    expect(await rpcResult(url, "query", call("name"))).toEqual({ result: [...Buffer.from('"shardkit"')], logs: [], ...at() });
  });

  it("answers a panicking call with nearcore's legacy result.error, HTTP 200, and drops its logs", async () => {
    const reply = await rpc(url, "query", call("boom"));
    expect(reply.status).toBe(200);
    expect(reply.body.result).toEqual({ error: 'wasm execution failed with error: HostError(GuestPanic { panic_msg: "it broke" })', logs: [], ...at() });
  });

  it("answers a missing method and an account without code the same way", async () => {
    expect((await rpc(url, "query", call("no_such_method"))).body.result).toEqual({
      error: "wasm execution failed with error: MethodResolveError(MethodNotFound)",
      logs: [],
      ...at(),
    });
    const noCode = await rpc(url, "query", call("anything", "", BOB));
    expect(noCode.status).toBe(200);
    expect(noCode.body.result.error).toMatch(/^wasm execution failed with error: CompilationError\(CodeDoesNotExist \{ account_id: AccountId\("bob\.test\.near"\) \}\)$/);
    expect(noCode.body.result.logs).toEqual([]);
  });

  it("answers UNKNOWN_ACCOUNT for a missing account and PARSE_ERROR for bad arguments", async () => {
    const missing = await rpcError(url, "query", call("echo", "", "nobody.test.near"));
    expect(missing.status).toBe(200);
    expect(missing.error).toEqual({
      name: "HANDLER_ERROR",
      cause: { name: "UNKNOWN_ACCOUNT", info: { requested_account_id: "nobody.test.near", ...at() } },
      code: -32000,
      message: "Server error",
      data: "account nobody.test.near does not exist while viewing",
    });
    const badArgs = await rpcError(url, "query", { ...call("echo"), args_base64: "YQ" });
    expect(badArgs.status).toBe(400);
    expect(badArgs.error.cause.name).toBe("PARSE_ERROR");
    const noMethod = await rpcError(url, "query", { request_type: "call_function", finality: "final", account_id: ALICE, args_base64: "" });
    expect(noMethod.error.data).toBe("Failed parsing args: missing field `method_name` in params");
  });

  it("reads the state of the block asked for: before the deploy there was no code", async () => {
    const result = await rpcResult(url, "query", { ...call("name"), finality: undefined, block_id: service.chain.genesisBlock.height });
    expect(result.error).toMatch(/CodeDoesNotExist/);
  });

  it("serves the legacy [\"call/<id>/<method>\", base58 args] path", async () => {
    const args = base58Encode(Buffer.from("hi"));
    expect(await rpcResult(url, "query", [`call/${ALICE}/echo`, args])).toEqual({ result: [...Buffer.from("hi")], logs: ["echo called"], ...at() });
  });

  it("works with near-api-js: callFunction decodes the JSON result; it recognises a missing method from result.error", async () => {
    const provider = new JsonRpcProvider({ url });
    expect(await provider.callFunction(ALICE, "name", {})).toBe("shardkit");
    await expect(provider.callFunction(ALICE, "no_such_method", {})).rejects.toThrow("Contract method is not found");
  });
});
