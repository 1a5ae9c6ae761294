import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import { base58Encode } from "@shardkit/primitives/base58";
import type { Service } from "../../src/server/startService.js";
import { rpc, rpcError, rpcResult, startTestService } from "./harness.js";

let service: Service;
let url: string;
beforeAll(async () => {
  service = await startTestService();
  for (let i = 0; i < 3; i++) service.chain.produceBlock();
  url = service.rpcUrl;
});
afterAll(() => service.close());

const NEAR = 10n ** 24n;
const parseError = (message: string) => ({
  name: "REQUEST_VALIDATION_ERROR",
  cause: { name: "PARSE_ERROR", info: { error_message: message } },
  code: -32700,
  message: "Parse error",
  data: message,
});
const alicePk = devKeyPair("alice.test.near").publicKeyString;

describe("query view_account", () => {
  it("returns the account at the final block with nearcore's fields", async () => {
    const final = service.chain.blockByFinality("final");
    const result = await rpcResult(url, "query", { request_type: "view_account", finality: "final", account_id: "alice.test.near" });
    expect(result).toEqual({
      amount: (10_000n * NEAR).toString(),
      locked: "0",
      code_hash: "11111111111111111111111111111111",
      // 100 bytes of account record + one ed25519 full-access key (33 + 9 + 40)
      storage_usage: 182,
      storage_paid_at: 0,
      block_height: final.height,
      block_hash: final.hash,
    });
  });

  it("reads at a block height, a block hash and a sync checkpoint", async () => {
    const genesis = service.chain.genesisBlock;
    const byHeight = await rpcResult(url, "query", { request_type: "view_account", block_id: genesis.height, account_id: "bob.test.near" });
    expect(byHeight).toMatchObject({ block_height: genesis.height, block_hash: genesis.hash, amount: (10_000n * NEAR).toString() });
    const byHash = await rpcResult(url, "query", { request_type: "view_account", block_id: genesis.hash, account_id: "bob.test.near" });
    expect(byHash).toEqual(byHeight);
    const checkpoint = await rpcResult(url, "query", { request_type: "view_account", sync_checkpoint: "genesis", account_id: "bob.test.near" });
    expect(checkpoint).toEqual(byHeight);
  });

  it("answers UNKNOWN_ACCOUNT for an account that does not exist", async () => {
    const head = service.chain.head();
    const { status, error } = await rpcError(url, "query", { request_type: "view_account", finality: "optimistic", account_id: "nobody.test.near" });
    expect(status).toBe(200);
    expect(error).toEqual({
      name: "HANDLER_ERROR",
      cause: { name: "UNKNOWN_ACCOUNT", info: { requested_account_id: "nobody.test.near", block_height: head.height, block_hash: head.hash } },
      code: -32000,
      message: "Server error",
      data: "account nobody.test.near does not exist while viewing",
    });
  });

  it("answers UNKNOWN_BLOCK for a height or hash the chain never had", async () => {
    const byHeight = await rpcError(url, "query", { request_type: "view_account", block_id: 999_999, account_id: "alice.test.near" });
    expect(byHeight.status).toBe(200);
    expect(byHeight.error).toEqual({
      name: "HANDLER_ERROR",
      cause: { name: "UNKNOWN_BLOCK", info: { block_reference: { block_id: 999_999 } } },
      code: -32000,
      message: "Server error",
      data: "DB Not Found Error: BLOCK HEIGHT: 999999 \n Cause: Unknown",
    });
    const hash = "9".repeat(43);
    const byHash = await rpcError(url, "query", { request_type: "view_account", block_id: hash, account_id: "alice.test.near" });
    expect(byHash.error.cause).toEqual({ name: "UNKNOWN_BLOCK", info: { block_reference: { block_id: hash } } });
    expect(byHash.error.data).toBe(`DB Not Found Error: BLOCK HEADER: ${hash}`);
  });
});

describe("query with an invalid account_id", () => {
  it.each([
    ["view_account", {}, "A!", "the Account ID contains an invalid character 'A' at index 0"],
    ["view_access_key_list", {}, "a", "the Account ID is too short"],
    ["view_access_key", { public_key: alicePk }, "alice.", "the Account ID has a redundant separator '.' at index 5"],
    ["view_state", { prefix_base64: "" }, "x".repeat(65), "the Account ID is too long"],
    ["view_account", {}, "ƒelicia.near", "the Account ID contains an invalid character 'ƒ' at index 0"],
    ["view_account", {}, "bob_-near", "the Account ID has a redundant separator '-' at index 4"],
  ])("%s %j %s answers nearcore's PARSE_ERROR, HTTP 400", async (request_type, extra, account_id, reason) => {
    const { status, error } = await rpcError(url, "query", { request_type, finality: "final", account_id, ...extra });
    expect(status).toBe(400);
    expect(error).toEqual(parseError(`Failed parsing args: invalid value: "${account_id}", ${reason}`));
  });
});

describe("query, legacy positional path form", () => {
  it("answers [\"account/<id>\", \"\"] at the optimistic head", async () => {
    const head = service.chain.head();
    const result = await rpcResult(url, "query", ["account/alice.test.near", ""]);
    expect(result).toMatchObject({ amount: (10_000n * NEAR).toString(), block_height: head.height, block_hash: head.hash });
  });

  it("answers access_key/<id>/<pk>, access_key/<id> and contract/<id> with base58 data", async () => {
    expect(await rpcResult(url, "query", [`access_key/alice.test.near/${alicePk}`, ""])).toMatchObject({ nonce: 0, permission: "FullAccess" });
    expect((await rpcResult(url, "query", ["access_key/alice.test.near", ""])).keys).toHaveLength(1);
    const prefix = base58Encode(new TextEncoder().encode("STATE"));
    expect((await rpcResult(url, "query", ["contract/alice.test.near", prefix])).values).toEqual([]);
    // Unpaginated, so the legacy form meets the size gate on the big fixture contract.
    expect((await rpcError(url, "query", ["contract/kv.test.near", prefix])).error.cause.name).toBe("TOO_LARGE_CONTRACT_STATE");
  });

  it("ignores a third path part after account/<id>, as nearcore's splitn(3) does", async () => {
    expect(await rpcResult(url, "query", ["account/alice.test.near/extra", ""])).toMatchObject({ amount: (10_000n * NEAR).toString() });
  });

  it.each([
    [["account/", ""], "the Account ID is too short"],
    [["account", ""], "Not enough query parameters provided"],
    [["account/Alice.near", ""], "the Account ID contains an invalid character 'A' at index 0"],
    [["account/alice..near", ""], "the Account ID has a redundant separator '.' at index 6"],
    [["balance/alice.test.near", ""], "Unknown path balance"],
    [["call/alice.test.near", ""], "Method name is missing"],
    [["access_key/alice.test.near/not-a-key", ""], "Invalid public key"],
    [["contract/kv.test.near", "0OIl"], "provided string contained invalid character '0' at byte 0"],
    [["account/alice.test.near"], "Failed parsing args: a positional query takes [path, data], both strings"],
  ])("rejects %j with nearcore's PARSE_ERROR text", async (params, message) => {
    const { status, error } = await rpcError(url, "query", params);
    expect(status).toBe(400);
    expect(error).toEqual(parseError(message));
  });
});

describe("query view_access_key", () => {
  it("returns a full-access key", async () => {
    const final = service.chain.blockByFinality("final");
    const result = await rpcResult(url, "query", { request_type: "view_access_key", finality: "final", account_id: "alice.test.near", public_key: alicePk });
    expect(result).toEqual({ nonce: 0, permission: "FullAccess", block_height: final.height, block_hash: final.hash });
  });

  it("answers a missing key with nearcore's legacy result.error and HTTP 200", async () => {
    const other = devKeyPair("bob.test.near").publicKeyString;
    const final = service.chain.blockByFinality("final");
    const reply = await rpc(url, "query", { request_type: "view_access_key", finality: "final", account_id: "alice.test.near", public_key: other });
    expect(reply.status).toBe(200);
    expect(reply.body.result).toEqual({
      error: `access key ${other} does not exist while viewing`,
      logs: [],
      block_height: final.height,
      block_hash: final.hash,
    });
  });

  it.each([
    ["a bad key type", "ed448:3pnJmd1E9p6GZ2Mqd6rXU1iWSCaVHTBquq6Jp5H5RkAR"],
    ["a short key", "ed25519:3pnJmd1E9p6GZ2Mqd6rXU1iWSC"],
    ["invalid base58", "ed25519:0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OI"],
  ])("rejects %s with PARSE_ERROR", async (_name, public_key) => {
    const { status, error } = await rpcError(url, "query", { request_type: "view_access_key", finality: "final", account_id: "alice.test.near", public_key });
    expect(status).toBe(400);
    expect(error.cause.name).toBe("PARSE_ERROR");
  });

  it("reads the key alone, as nearcore does: a missing account answers the legacy result.error", async () => {
    const reply = await rpc(url, "query", { request_type: "view_access_key", finality: "final", account_id: "nobody.test.near", public_key: alicePk });
    expect(reply.status).toBe(200);
    expect(reply.body.result.error).toBe(`access key ${alicePk} does not exist while viewing`);
  });
});

describe("query view_access_key_list", () => {
  it("lists the account's keys", async () => {
    const final = service.chain.blockByFinality("final");
    const result = await rpcResult(url, "query", { request_type: "view_access_key_list", finality: "final", account_id: "carol.test.near" });
    expect(result).toEqual({
      keys: [{ public_key: devKeyPair("carol.test.near").publicKeyString, access_key: { nonce: 0, permission: "FullAccess" } }],
      block_height: final.height,
      block_hash: final.hash,
    });
  });

  it("lists no keys for a missing account", async () => {
    expect((await rpcResult(url, "query", { request_type: "view_access_key_list", finality: "final", account_id: "nobody.test.near" })).keys).toEqual([]);
  });

  it("ignores fields of another request type, as nearcore's flattened request types do", async () => {
    const params = { request_type: "view_access_key_list", finality: "final", account_id: "carol.test.near" };
    const withKey = await rpcResult(url, "query", { ...params, public_key: alicePk });
    expect(withKey).toEqual(await rpcResult(url, "query", params));
  });
});
