import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base58Encode } from "@shardkit/primitives/base58";
import { sha256 } from "../../src/chain/primitives/sha256.js";
import type { Action } from "../../src/chain/transaction/index.js";
import type { Service } from "../../src/server/startService.js";
import { ALICE, BOB, CAROL, ROOT, signedTx } from "../chain/runtime/helpers.js";
import { rpcError, rpcResult, startTestService } from "./harness.js";

// Global contracts over real HTTP: signed Borsh transactions through send_tx, the two query
// types, view_account / view_code / call_function on accounts that use one, EXPERIMENTAL_changes.
const KV = readFileSync(new URL("../../contracts/build/kv.wasm", import.meta.url));
const FT = readFileSync(new URL("../../contracts/build/ft.wasm", import.meta.url));
const KV_HASH = base58Encode(sha256(KV));
const FT_HASH = base58Encode(sha256(FT));
const ZERO_HASH = "11111111111111111111111111111111";
const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64");

let service: Service;
let url: string;
beforeAll(async () => {
  service = await startTestService({ txTimeoutMs: 10_000 });
  url = service.rpcUrl;
});
afterAll(() => service.close());

async function send(signer: string, receiver: string, actions: Action[]) {
  const bytes = signedTx(service.chain, signer, receiver, actions);
  return rpcResult(url, "send_tx", { signed_tx_base64: b64(bytes), wait_until: "FINAL" });
}

/** Blocks until every shard had time to store a distribution sent at the head (one block a shard). */
function distribute(): void {
  for (let i = 0; i < service.chain.shardLayout.numShards + 1; i++) service.chain.produceBlock();
}

const at = (block = service.chain.blockByFinality("final")) => ({ block_height: block.height, block_hash: block.hash });

describe("global contracts over JSON-RPC", () => {
  it("deploys by code hash: action view, outcome, then the code on every shard through view_global_contract_code", async () => {
    const tx = await send(ALICE, ALICE, [{ type: "DeployGlobalContract", code: KV, deployMode: "CodeHash" }]);
    expect(tx.status).toEqual({ SuccessValue: "" });
    expect(tx.transaction.actions).toEqual([{ DeployGlobalContract: { code: b64(KV) } }]);
    const receipt = tx.receipts_outcome[0].outcome;
    // Only the gas refund (NEP-642's price surplus): the distribution receipt is not listed.
    expect(receipt.receipt_ids).toEqual([tx.receipts_outcome[1].id]);
    expect(BigInt(receipt.tokens_burnt) - BigInt(receipt.gas_burnt) * 100_000_000n).toBe(BigInt(KV.length) * 10n ** 20n);
    distribute();
    expect(await rpcResult(url, "query", { request_type: "view_global_contract_code", finality: "final", code_hash: KV_HASH })).toEqual({
      code_base64: b64(KV),
      hash: KV_HASH,
      ...at(),
    });
  });

  it("NO_GLOBAL_CONTRACT_CODE with nearcore's identifier and text", async () => {
    const missing = base58Encode(sha256(Buffer.from("never deployed")));
    const byHash = await rpcError(url, "query", { request_type: "view_global_contract_code", finality: "final", code_hash: missing });
    expect(byHash.status).toBe(200);
    expect(byHash.error.cause).toEqual({ name: "NO_GLOBAL_CONTRACT_CODE", info: { identifier: { CodeHash: missing }, ...at() } });
    expect(byHash.error.data).toBe(`Global contract code with identifier CodeHash(${missing}) has never been observed on the node`);
    const byAccount = await rpcError(url, "query", { request_type: "view_global_contract_code_by_account_id", finality: "final", account_id: BOB });
    expect(byAccount.error.cause).toEqual({ name: "NO_GLOBAL_CONTRACT_CODE", info: { identifier: { AccountId: BOB }, ...at() } });
    expect(byAccount.error.data).toBe(`Global contract code with identifier AccountId("${BOB}") has never been observed on the node`);
  });

  it("UseGlobalContract by hash: view_account, view_code, calls and account changes as nearcore shows them", async () => {
    const before = await rpcResult(url, "query", { request_type: "view_account", finality: "final", account_id: BOB });
    const tx = await send(BOB, BOB, [{ type: "UseGlobalContract", contractIdentifier: { kind: "CodeHash", codeHash: sha256(KV) } }]);
    expect(tx.status).toEqual({ SuccessValue: "" });
    expect(tx.transaction.actions).toEqual([{ UseGlobalContract: { code_hash: KV_HASH } }]);
    const height = service.chain.blockByHash(tx.receipts_outcome[0].block_hash)!.height;
    const account = await rpcResult(url, "query", { request_type: "view_account", block_id: height, account_id: BOB });
    expect(account).toMatchObject({ code_hash: ZERO_HASH, global_contract_hash: KV_HASH, storage_usage: before.storage_usage + 32 });
    expect(account.global_contract_account_id).toBeUndefined();
    expect(await rpcResult(url, "query", { request_type: "view_code", block_id: height, account_id: BOB })).toMatchObject({ code_base64: b64(KV), hash: KV_HASH });
    const changes = await rpcResult(url, "EXPERIMENTAL_changes", { changes_type: "account_changes", block_id: height, account_ids: [BOB] });
    expect(changes.changes.at(-1)).toMatchObject({ type: "account_update", change: { account_id: BOB, code_hash: ZERO_HASH, global_contract_hash: KV_HASH } });

    const set = await send(BOB, BOB, [{ type: "FunctionCall", methodName: "set", args: Buffer.from('{"key":"g","value":"global"}'), gas: 30_000_000_000_000n, deposit: 0n }]);
    expect(set.status).toEqual({ SuccessValue: "" });
    const got = await rpcResult(url, "query", { request_type: "call_function", finality: "final", account_id: BOB, method_name: "get", args_base64: b64('{"key":"g"}') });
    expect(Buffer.from(got.result).toString()).toBe('"global"');
  });

  it("by account id: deploy, use, redeploy, and the user runs the new code", async () => {
    const deploy = await send(CAROL, CAROL, [{ type: "DeployGlobalContract", code: FT, deployMode: "AccountId" }]);
    expect(deploy.transaction.actions).toEqual([{ DeployGlobalContractByAccountId: { code: b64(FT) } }]);
    distribute();
    expect(await rpcResult(url, "query", { request_type: "view_global_contract_code_by_account_id", finality: "final", account_id: CAROL })).toEqual({
      code_base64: b64(FT),
      hash: FT_HASH,
      ...at(),
    });
    const use = await send(ROOT, ROOT, [{ type: "UseGlobalContract", contractIdentifier: { kind: "AccountId", accountId: CAROL } }]);
    expect(use.transaction.actions).toEqual([{ UseGlobalContractByAccountId: { account_id: CAROL } }]);
    distribute();
    const account = await rpcResult(url, "query", { request_type: "view_account", finality: "final", account_id: ROOT });
    expect(account).toMatchObject({ code_hash: ZERO_HASH, global_contract_account_id: CAROL });
    expect(account.global_contract_hash).toBeUndefined();
    expect(await rpcResult(url, "query", { request_type: "view_code", finality: "final", account_id: ROOT })).toMatchObject({ hash: FT_HASH });

    await send(CAROL, CAROL, [{ type: "DeployGlobalContract", code: KV, deployMode: "AccountId" }]);
    distribute();
    expect(await rpcResult(url, "query", { request_type: "view_code", finality: "final", account_id: ROOT })).toMatchObject({ code_base64: b64(KV), hash: KV_HASH });
    expect(await rpcResult(url, "query", { request_type: "view_global_contract_code_by_account_id", finality: "final", account_id: CAROL })).toMatchObject({ hash: KV_HASH });
  });

  it("a UseGlobalContract the shard does not have fails with GlobalContractDoesNotExist in the outcome", async () => {
    const tx = await send(BOB, BOB, [{ type: "UseGlobalContract", contractIdentifier: { kind: "AccountId", accountId: "nobody.test.near" } }]);
    expect(tx.status).toEqual({ Failure: { ActionError: { index: 0, kind: { GlobalContractDoesNotExist: { identifier: { AccountId: "nobody.test.near" } } } } } });
  });
});
