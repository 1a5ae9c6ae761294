import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Account } from "@near-js/accounts";
import { KeyPair } from "@near-js/crypto";
import { JsonRpcProvider } from "@near-js/providers";
import { KeyPairSigner } from "@near-js/signers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base58Encode } from "@shardkit/primitives/base58";
import { sha256 } from "../../src/chain/primitives/sha256.js";
import type { Service } from "../../src/server/startService.js";
import { post, rpcError, rpcResult, startTestService } from "./harness.js";

// sandbox_patch_state over real HTTP against the real chain: every patch is read back with
// `query` as a client would, and a patched key signs a transaction through near-api-js.
let service: Service;
let url: string;
beforeAll(async () => {
  service = await startTestService({ apiPort: 0 });
  url = service.rpcUrl;
});
afterAll(() => service.close());

const NEAR = 10n ** 24n;
const ZERO_HASH = "11111111111111111111111111111111";
const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64");
const kvWasm = readFileSync(join(import.meta.dirname, "..", "..", "contracts", "build", "kv.wasm"));
const query = (params: object) => rpcResult(url, "query", { finality: "optimistic", ...params });
const viewAccount = (account_id: string) => query({ request_type: "view_account", account_id });
const accountRecord = (account_id: string, amount: bigint, extra: object = {}) => ({
  Account: { account_id, account: { amount: amount.toString(), locked: "0", code_hash: ZERO_HASH, storage_usage: 0, ...extra } },
});
const patch = (records: unknown[]) => rpcResult(url, "sandbox_patch_state", { records });

describe("sandbox_patch_state", () => {
  it("creates and funds an account with a key (no transaction), written as given, visible at once; near-api-js then signs with the key", async () => {
    const key = KeyPair.fromRandom("ed25519");
    const headBefore = service.chain.head().height;
    expect(
      await patch([
        accountRecord("rich.test.near", 1000n * NEAR, { storage_usage: 182, version: "V1" }),
        { AccessKey: { account_id: "rich.test.near", public_key: key.getPublicKey().toString(), access_key: { nonce: 7, permission: "FullAccess" } } },
      ]),
    ).toEqual({});
    // One block holds the patch (the on-demand scheduler then adds the blocks that make it final).
    expect(service.chain.stateChangesInBlock(service.chain.blockByHeight(headBefore + 1)!).account("rich.test.near")).toHaveLength(1);
    const view = await viewAccount("rich.test.near");
    // As nearcore's sandbox: the record's storage_usage, not a recount.
    expect(view).toMatchObject({ amount: (1000n * NEAR).toString(), locked: "0", code_hash: ZERO_HASH, storage_usage: 182 });
    expect(await query({ request_type: "view_access_key", account_id: "rich.test.near", public_key: key.getPublicKey().toString() })).toMatchObject({
      nonce: 7,
      permission: "FullAccess",
    });

    const rich = new Account("rich.test.near", new JsonRpcProvider({ url }), new KeyPairSigner(key));
    const bobBefore = BigInt((await viewAccount("bob.test.near")).amount);
    const sent = await rich.transfer({ receiverId: "bob.test.near", amount: 3n * NEAR });
    expect(sent.status).toEqual({ SuccessValue: "" });
    expect(BigInt((await viewAccount("bob.test.near")).amount)).toBe(bobBefore + 3n * NEAR);
    expect((await query({ request_type: "view_access_key", account_id: "rich.test.near", public_key: key.getPublicKey().toString() })).nonce).toBeGreaterThan(7);
  });

  it("deploys code and data after an Account record with the code's hash: view_code, view_state and call_function work, storage_usage is the record's", async () => {
    const codeHash = base58Encode(sha256(kvWasm));
    const records = [
      accountRecord("store.test.near", 50n * NEAR, { code_hash: codeHash, storage_usage: 1234 }),
      { Contract: { account_id: "store.test.near", code: b64(kvWasm) } },
      { Data: { account_id: "store.test.near", data_key: b64("greeting"), value: b64('"hello"') } },
      { Data: { account_id: "store.test.near", data_key: b64("n"), value: b64("1") } },
    ];
    await patch(records);
    const view = await viewAccount("store.test.near");
    expect(view.code_hash).toBe(codeHash);
    expect(view.storage_usage).toBe(1234);
    const code = await query({ request_type: "view_code", account_id: "store.test.near" });
    expect(code).toMatchObject({ code_base64: b64(kvWasm), hash: codeHash });
    const state = await query({ request_type: "view_state", account_id: "store.test.near", prefix_base64: "" });
    expect(state.values).toEqual([
      { key: b64("greeting"), value: b64('"hello"') },
      { key: b64("n"), value: b64("1") },
    ]);
    const called = await query({ request_type: "call_function", account_id: "store.test.near", method_name: "get", args_base64: b64(JSON.stringify({ key: "greeting" })) });
    expect(Buffer.from(called.result as number[]).toString()).toBe(JSON.stringify('"hello"'));
  });

  it("patches an existing account as given: the record replaces amount, code_hash and storage_usage; Data and AccessKey records leave the account alone", async () => {
    const before = await viewAccount("kv.test.near");
    const stateKey = b64("STATE");
    const functionKey = KeyPair.fromRandom("ed25519").getPublicKey().toString();
    const permission = { FunctionCall: { allowance: "1000000000000000000000000", receiver_id: "kv.test.near", method_names: ["set"] } };
    // The record as near-workspaces builds it: view_account's fields, block_height and block_hash included.
    await patch([
      { Account: { account_id: "kv.test.near", account: { ...before, amount: (77n * NEAR).toString(), storage_usage: 1, version: "V1" } } },
      { Data: { account_id: "kv.test.near", data_key: stateKey, value: b64("0123456789") } },
      { AccessKey: { account_id: "kv.test.near", public_key: functionKey, access_key: { nonce: 0, permission } } },
    ]);
    const after = await viewAccount("kv.test.near");
    expect(after).toMatchObject({ amount: (77n * NEAR).toString(), locked: before.locked, code_hash: before.code_hash, storage_usage: 1 });
    const entry = (await query({ request_type: "view_state", account_id: "kv.test.near", prefix_base64: stateKey, limit: 10 })).values.find((v: { key: string }) => v.key === stateKey);
    expect(entry).toEqual({ key: stateKey, value: b64("0123456789") });
    expect(await query({ request_type: "view_access_key", account_id: "kv.test.near", public_key: functionKey })).toMatchObject({ nonce: 0, permission });
    await patch([{ AccessKey: { account_id: "kv.test.near", public_key: functionKey, access_key: { nonce: 5, permission: "FullAccess" } } }]);
    expect(await viewAccount("kv.test.near")).toMatchObject({ storage_usage: 1 });
    // An Account record whose code_hash names no code in state is written as given too.
    await patch([accountRecord("kv.test.near", 77n * NEAR, { code_hash: base58Encode(sha256(kvWasm)), storage_usage: 100 })]);
    expect((await viewAccount("kv.test.near")).code_hash).toBe(base58Encode(sha256(kvWasm)));
  });

  it("writes AccessKey and Data records for an account that does not exist, as nearcore does", async () => {
    const key = KeyPair.fromRandom("ed25519").getPublicKey().toString();
    await patch([
      { AccessKey: { account_id: "orphan.test.near", public_key: key, access_key: { nonce: 3, permission: "FullAccess" } } },
      { Data: { account_id: "orphan.test.near", data_key: b64("k"), value: b64("v") } },
    ]);
    expect(await query({ request_type: "view_access_key", account_id: "orphan.test.near", public_key: key })).toMatchObject({ nonce: 3 });
    const { error } = await rpcError(url, "query", { request_type: "view_account", finality: "optimistic", account_id: "orphan.test.near" });
    expect(error.cause.name).toBe("UNKNOWN_ACCOUNT");
  });

  it("takes near-workspaces' params as sent: its record builder {account_id, records} and unknown fields in records", async () => {
    const key = KeyPair.fromRandom("ed25519").getPublicKey().toString();
    const params = {
      account_id: "builder.test.near",
      records: [
        { Account: { account_id: "builder.test.near", account: { amount: "5", locked: "0", code_hash: ZERO_HASH, storage_usage: 0, block_height: 1, block_hash: ZERO_HASH } } },
        { AccessKey: { account_id: "builder.test.near", public_key: key, access_key: { nonce: 0, permission: "FullAccess", extra: 1 }, extra: true } },
      ],
    };
    expect(await rpcResult(url, "sandbox_patch_state", params)).toEqual({});
    expect(await viewAccount("builder.test.near")).toMatchObject({ amount: "5", storage_usage: 0 });
  });

  it("is seen by the REST index like any block's writes", async () => {
    await patch([accountRecord("indexed.test.near", 5n * NEAR)]);
    const height = service.chain.head().height;
    await service.indexer.whenIndexed(height);
    const response = await fetch(`${service.apiUrl!}/v1/account/indexed.test.near/full`);
    expect(((await response.json()) as { state: { balance: string } }).state.balance).toBe((5n * NEAR).toString());
  });

  it("refuses bad records with PARSE_ERROR and writes nothing", async () => {
    const head = service.chain.head().height;
    const cases: [unknown, RegExp][] = [
      [{}, /missing field|must have required property 'records'/],
      [{ records: "x" }, /records/],
      [{ records: [{ PostponedReceipt: {} }] }, /records/],
      [{ records: [{ Contract: { account_id: "nobody.test.near", code: b64(kvWasm) } }] }, /records\[0\]: account nobody\.test\.near does not exist; a Contract record needs an Account record before it/],
      [
        { records: [accountRecord("ok.test.near", 1n), { Contract: { account_id: "ok.test.near", code: b64(kvWasm) } }] },
        new RegExp(`records\\[1\\]: the code's hash ${base58Encode(sha256(kvWasm))} is not account ok\\.test\\.near's code_hash ${ZERO_HASH}`),
      ],
      [{ records: [accountRecord("ok.test.near", 1n), { Contract: { account_id: "ok.test.near", code: "abc" } }] }, /records\[1\]: Contract\.code/],
      [{ records: [{ Account: { account_id: "ok.test.near" }, Data: { account_id: "ok.test.near" } }] }, /params\/records\/0/],
      [{ records: [accountRecord("Bad", 1n)] }, /params\/records\/0/],
      [{ records: [accountRecord("ok.test.near", 1n, { amount: "1e3" })] }, /params\/records\/0/],
    ];
    for (const [params, message] of cases) {
      const { status, error } = await rpcError(url, "sandbox_patch_state", params);
      expect(status).toBe(400);
      expect(error).toMatchObject({ name: "REQUEST_VALIDATION_ERROR", code: -32700, cause: { name: "PARSE_ERROR" } });
      expect(error.data).toMatch(message);
    }
    expect(service.chain.head().height).toBe(head);
    await rpcError(url, "query", { request_type: "view_account", finality: "optimistic", account_id: "ok.test.near" });
  });

  it("an empty patch answers {} without a block", async () => {
    const head = service.chain.head().height;
    expect(await patch([])).toEqual({});
    expect(service.chain.head().height).toBe(head);
    const raw = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "sandbox_patch_state", params: { records: [] } }));
    expect(JSON.parse(raw.text)).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });
});
