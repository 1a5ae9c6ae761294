import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { deriveDeterministicAccountId } from "@shardkit/primitives/deterministicAccountId";
import { globalContractCodeKey } from "../../../src/chain/runtime/runtimeTrieKeys.js";
import { ALICE, CAROL, NEAR, openChain, outcomeOf, settle, submit, sumOfBalances } from "../runtime/helpers.js";
import { call, deploy } from "./deploy.js";
import { contract } from "./wat.js";

const KV = readFileSync(new URL("../../../contracts/build/kv.wasm", import.meta.url));
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/**
 * Deployed on ALICE. `spawn` (input: the receiver id): a receipt to the receiver with a
 * DeterministicStateInit of CAROL's global contract (by account id), 0.01 NEAR of deposit and
 * the entry root = "bob", returned as the call's promise.
 */
const SPAWNER = contract(
  `(import "env" "input" (func $input (param i64)))
   (import "env" "promise_batch_create" (func $create (param i64 i64) (result i64)))
   (import "env" "promise_batch_action_state_init_by_account_id" (func $init (param i64 i64 i64 i64) (result i64)))
   (import "env" "set_state_init_data_entry" (func $entry (param i64 i64 i64 i64 i64 i64)))
   (import "env" "promise_return" (func $promise_return (param i64)))`,
  `(data (i32.const 0) "${CAROL}")
   (data (i32.const 64) "\\00\\00\\40\\b2\\ba\\c9\\e0\\19\\1e\\02\\00\\00\\00\\00\\00\\00")
   (data (i32.const 96) "root")
   (data (i32.const 112) "bob")
   (func (export "spawn")
     (local $p i64) (local $a i64)
     (call $input (i64.const 1))
     (local.set $p (call $create (i64.const -1) (i64.const 1)))
     (local.set $a (call $init (local.get $p) (i64.const ${CAROL.length}) (i64.const 0) (i64.const 64)))
     (call $entry (local.get $p) (local.get $a) (i64.const 4) (i64.const 96) (i64.const 3) (i64.const 112))
     (call $promise_return (local.get $p)))`,
);

/** `who`: panics unless current_contract_code says "global by account id" (3); returns the id it names. */
const WHO = contract(
  `(import "env" "current_contract_code" (func $code (param i64) (result i64)))
   (import "env" "value_return" (func $value_return (param i64 i64)))
   (import "env" "panic" (func $panic))`,
  `(func (export "who")
     (if (i64.ne (call $code (i64.const 1)) (i64.const 3)) (then (call $panic)))
     (call $value_return (i64.const -1) (i64.const 1)))`,
);

describe("DeterministicStateInit from a contract", () => {
  it("a contract's state init creates the derived account on another shard; the unneeded deposit goes back to the contract", async () => {
    const chain = await openChain();
    settle(chain, submit(chain, CAROL, CAROL, [{ type: "DeployGlobalContract", code: KV, deployMode: "AccountId" }]));
    const key = globalContractCodeKey({ kind: "AccountId", accountId: CAROL });
    while (!chain.shardLayout.shardIds.every((s) => chain.at(chain.head()).shard(s).get(key) !== undefined)) chain.produceBlock();
    deploy(chain, ALICE, SPAWNER);
    const id = deriveDeterministicAccountId({ version: "V1", code: { kind: "AccountId", accountId: CAROL }, data: [[utf8("root"), utf8("bob")]] });
    const deposit = NEAR / 100n;
    const alice0 = chain.at(chain.head()).account(ALICE)!.amount;
    const o = outcomeOf(settle(chain, submit(chain, ALICE, ALICE, [call("spawn", id)])));
    expect(o.status).toEqual({ SuccessValue: "" });
    const spawned = o.receipts_outcome.find((r) => r.outcome.executor_id === id)!;
    expect(spawned.outcome.status).toEqual({ SuccessValue: "" });
    const receipt = chain.receipt(spawned.id)!;
    expect(receipt).toMatchObject({
      predecessor_id: ALICE,
      receiver_id: id,
      receipt: { Action: { actions: [{ DeterministicStateInit: { code: { account_id: CAROL }, data: { "cm9vdA==": "Ym9i" }, deposit: deposit.toString() } }] } },
    });
    expect(chain.at(chain.head()).account(id)).toMatchObject({ amount: 0n, storageUsage: 100 + CAROL.length + 4 + 3 + 40, globalContractAccountId: CAROL });
    const got = chain.at(chain.head()).callFunction(id, "get", utf8(JSON.stringify({ key: "root" })));
    expect(got.ok && Buffer.from(got.result).toString()).toBe('"bob"');
    // The deposit (a zero-balance account needs none) comes back to ALICE, the predecessor.
    const refund = spawned.outcome.receipt_ids.map((r) => chain.receipt(r)!).find((r) => r.receiver_id === ALICE && r.predecessor_id === "system" && JSON.stringify(r.receipt).includes(deposit.toString()));
    expect(refund).toBeDefined();
    expect(chain.at(chain.head()).account(ALICE)!.amount).toBeLessThan(alice0);
    expect(alice0 - chain.at(chain.head()).account(ALICE)!.amount).toBeLessThan(deposit);
    expect(sumOfBalances(chain)).toBe(BigInt(chain.head().view.header.total_supply));
  });

  it("current_contract_code on a deterministic account names its global contract (mode 3 and the deployer id)", async () => {
    const chain = await openChain();
    settle(chain, submit(chain, CAROL, CAROL, [{ type: "DeployGlobalContract", code: WHO, deployMode: "AccountId" }]));
    const key = globalContractCodeKey({ kind: "AccountId", accountId: CAROL });
    while (!chain.shardLayout.shardIds.every((s) => chain.at(chain.head()).shard(s).get(key) !== undefined)) chain.produceBlock();
    const state = { version: "V1" as const, code: { kind: "AccountId" as const, accountId: CAROL }, data: [] };
    const id = deriveDeterministicAccountId(state);
    const o = outcomeOf(settle(chain, submit(chain, ALICE, id, [{ type: "DeterministicStateInit", stateInit: state, deposit: 0n }])));
    expect(o.status).toEqual({ SuccessValue: "" });
    const got = chain.at(chain.head()).callFunction(id, "who", new Uint8Array());
    expect(got.ok && Buffer.from(got.result).toString()).toBe(CAROL);
    const called = outcomeOf(settle(chain, submit(chain, ALICE, id, [call("who")])));
    expect(called.status).toEqual({ SuccessValue: Buffer.from(CAROL).toString("base64") });
  });
});
