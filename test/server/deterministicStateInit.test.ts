import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deriveDeterministicAccountId } from "@shardkit/primitives/deterministicAccountId";
import { globalContractCodeKey } from "../../src/chain/runtime/runtimeTrieKeys.js";
import type { Action, DeterministicAccountStateInit } from "../../src/chain/transaction/index.js";
import type { Service } from "../../src/server/startService.js";
import { ALICE, BOB, NEAR, signedTx } from "../chain/runtime/helpers.js";
import { rpcError, rpcResult, startTestService } from "./harness.js";

// DeterministicStateInit (NEP-616) over real HTTP: a signed transaction with the action through
// send_tx, then the derived account as view_account, view_state, call_function and
// EXPERIMENTAL_changes show it, and the refusal of a wrong receiver.
const KV = readFileSync(new URL("../../contracts/build/kv.wasm", import.meta.url));
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const b64 = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString("base64");
const STATE: DeterministicAccountStateInit = {
  version: "V1",
  code: { kind: "AccountId", accountId: ALICE },
  data: [[utf8("owner"), utf8(BOB)], [utf8("root"), utf8("bob")]],
};
const ID = deriveDeterministicAccountId(STATE);
const init = (deposit: bigint): Action => ({ type: "DeterministicStateInit", stateInit: STATE, deposit });

let service: Service;
let url: string;
beforeAll(async () => {
  service = await startTestService({ txTimeoutMs: 5_000 });
  url = service.rpcUrl;
  const chain = service.chain;
  chain.submitTransaction(signedTx(chain, ALICE, ALICE, [{ type: "DeployGlobalContract", code: KV, deployMode: "AccountId" }]));
  const key = globalContractCodeKey({ kind: "AccountId", accountId: ALICE });
  for (let i = 0; i < 10 && !chain.shardLayout.shardIds.every((s) => chain.at(chain.head()).shard(s).get(key) !== undefined); i++) chain.produceBlock();
});
afterAll(() => service.close());

const send = (signed: Uint8Array) => rpcResult(url, "send_tx", { signed_tx_base64: b64(signed), wait_until: "FINAL" });
const query = (params: object) => rpcResult(url, "query", { finality: "optimistic", ...params });

describe("DeterministicStateInit over JSON-RPC", () => {
  it("send_tx creates the derived account; view_account, view_state, call_function and EXPERIMENTAL_changes show it", async () => {
    const o = await send(signedTx(service.chain, BOB, ID, [init(NEAR)]));
    expect(o.status).toEqual({ SuccessValue: "" });
    expect(o.transaction.receiver_id).toBe(ID);
    expect(o.transaction.actions).toEqual([
      { DeterministicStateInit: { code: { account_id: ALICE }, data: { [b64("owner")]: b64(BOB), [b64("root")]: b64("bob") }, deposit: NEAR.toString() } },
    ]);
    const view = await query({ request_type: "view_account", account_id: ID });
    // 100 + 15 (identifier) + (5 + 13 + 40) + (4 + 3 + 40) bytes: a zero-balance account.
    expect(view).toMatchObject({
      amount: "0",
      locked: "0",
      code_hash: "11111111111111111111111111111111",
      global_contract_account_id: ALICE,
      storage_usage: 220,
    });
    expect(view).not.toHaveProperty("global_contract_hash");
    const state = await query({ request_type: "view_state", account_id: ID, prefix_base64: "" });
    expect(state.values).toEqual([
      { key: b64("owner"), value: b64(BOB) },
      { key: b64("root"), value: b64("bob") },
    ]);
    const got = await query({ request_type: "call_function", account_id: ID, method_name: "get", args_base64: b64(JSON.stringify({ key: "root" })) });
    expect(Buffer.from(got.result).toString()).toBe('"bob"');

    const receipt = o.receipts_outcome[0];
    const height = service.chain.blockByHash(receipt.block_hash)!.height;
    const cause = { type: "receipt_processing", receipt_hash: receipt.id };
    const accounts = await rpcResult(url, "EXPERIMENTAL_changes", { changes_type: "account_changes", block_id: height, account_ids: [ID] });
    expect(accounts.changes).toEqual([{ cause, type: "account_update", change: expect.objectContaining({ account_id: ID, amount: "0", storage_usage: 220, global_contract_account_id: ALICE }) }]);
    const data = await rpcResult(url, "EXPERIMENTAL_changes", { changes_type: "data_changes", block_id: height, account_ids: [ID], key_prefix_base64: "" });
    expect(data.changes).toEqual([
      { cause, type: "data_update", change: { account_id: ID, key_base64: b64("owner"), value_base64: b64(BOB) } },
      { cause, type: "data_update", change: { account_id: ID, key_base64: b64("root"), value_base64: b64("bob") } },
    ]);
  });

  it("refuses a state init sent to another account with nearcore's InvalidTxError", async () => {
    const reply = await rpcError(url, "send_tx", { signed_tx_base64: b64(signedTx(service.chain, BOB, ALICE, [init(0n)])) });
    expect(reply.error.data).toEqual({
      TxExecutionError: { InvalidTxError: { ActionsValidation: { InvalidDeterministicStateInitReceiver: { receiver_id: ALICE, derived_id: ID } } } },
    });
  });
});
