import { describe, expect, it } from "vitest";
import type { Chain } from "../../../src/chain/node.js";
import { contractDataTrieKey } from "../../../src/chain/store/trieKeys.js";
import { ALICE, BOB, CAROL, GAS_PRICE, NEAR, TRANSFER_GAS, balanceOf, keyOf, openChain, outcomeOf, settle, submit, sumOfBalances } from "../runtime/helpers.js";
import { call, deploy } from "./deploy.js";
import { PROBE } from "./probeContract.js";
import { contract } from "./wat.js";

const b64 = (s: string): string => Buffer.from(s).toString("base64");

async function chainWithProbes(): Promise<Chain> {
  const chain = await openChain();
  deploy(chain, ALICE, PROBE); // shard 0
  deploy(chain, BOB, PROBE); // shard 1
  return chain;
}

describe("contract promises across shards", () => {
  it("a promise to another shard and a callback that sees its result (promise_return forwards it)", async () => {
    const chain = await chainWithProbes();
    expect(chain.shardOf(ALICE)).not.toBe(chain.shardOf(BOB));
    const o = outcomeOf(settle(chain, submit(chain, CAROL, ALICE, [call("fork", BOB)])));
    expect(o.status).toEqual({ SuccessValue: b64("1") });
    const [fork] = o.receipts_outcome;
    expect(fork!.outcome.executor_id).toBe(ALICE);
    const [leafId, cbId] = fork!.outcome.receipt_ids;
    expect(fork!.outcome.status).toEqual({ SuccessReceiptId: cbId });
    const byId = new Map(o.receipts_outcome.map((r) => [r.id, r]));
    const leaf = byId.get(leafId!)!;
    const cb = byId.get(cbId!)!;
    expect(leaf.outcome.executor_id).toBe(BOB);
    expect(leaf.outcome.status).toEqual({ SuccessValue: b64("ping") });
    expect(cb.outcome.executor_id).toBe(ALICE);
    expect(cb.outcome.logs).toEqual(["ping"]);
    expect(cb.outcome.status).toEqual({ SuccessValue: b64("1") });
    // The callback ran after the data crossed shards: a later block than the leaf.
    expect(chain.blockByHash(cb.block_hash)!.height).toBeGreaterThan(chain.blockByHash(leaf.block_hash)!.height);
    // The receipt DAG as ReceiptViews: leaf's output goes to cb's input.
    const leafView = chain.receipt(leafId!)!.receipt as { Action: { output_data_receivers: { data_id: string; receiver_id: string }[]; actions: unknown[] } };
    const cbView = chain.receipt(cbId!)!.receipt as { Action: { input_data_ids: string[]; signer_id: string } };
    expect(leafView.Action.output_data_receivers).toEqual([{ data_id: cbView.Action.input_data_ids[0], receiver_id: ALICE }]);
    expect(leafView.Action.actions).toEqual([{ FunctionCall: { method_name: "leaf", args: b64("ping"), gas: 20_000_000_000_000, deposit: "0" } }]);
    expect(cbView.Action.signer_id).toBe(CAROL);
    const costs = fork!.outcome.metadata.gas_profile!.filter((e) => e.cost_category === "ACTION_COST").map((e) => e.cost);
    expect(costs).toEqual(["FUNCTION_CALL_BASE", "FUNCTION_CALL_BYTE", "NEW_ACTION_RECEIPT"]);
    expect(fork!.outcome.metadata.gas_profile!.some((e) => e.cost === "PROMISE_RETURN")).toBe(true);
    for (const r of o.receipts_outcome) expect(r.outcome.gas_burnt).toBeGreaterThan(0);
    expect(sumOfBalances(chain)).toBe(BigInt(chain.head().view.header.total_supply));
  });

  it("a failing branch: the callback sees Failed", async () => {
    const chain = await chainWithProbes();
    const o = outcomeOf(settle(chain, submit(chain, CAROL, ALICE, [call("fork_fail", BOB)])));
    expect(o.status).toEqual({ SuccessValue: b64("1") });
    const failed = o.receipts_outcome.find((r) => r.outcome.executor_id === BOB && "Failure" in (r.outcome.status as object))!;
    expect(failed.outcome.status).toEqual({
      Failure: { ActionError: { index: 0, kind: { FunctionCallError: { ExecutionError: "Smart contract panicked: leaf failed" } } } },
    });
    const cb = o.receipts_outcome.find((r) => r.outcome.logs.length > 0)!;
    expect(cb.outcome.logs).toEqual(["failed"]);
  });

  it("promise_and joins two results in order, one of them failed", async () => {
    const chain = await chainWithProbes();
    const o = outcomeOf(settle(chain, submit(chain, CAROL, ALICE, [call("join", BOB)])));
    expect(o.status).toEqual({ SuccessValue: b64("2") });
    const [join] = o.receipts_outcome;
    // leaf, fail, cb, then the gas refund to the signer.
    expect(join!.outcome.receipt_ids).toHaveLength(4);
    expect(chain.receipt(join!.outcome.receipt_ids[3]!)!.receiver_id).toBe(CAROL);
    const cb = o.receipts_outcome.find((r) => r.id === join!.outcome.receipt_ids[2])!;
    expect(cb.outcome.logs).toEqual(["ping", "failed"]);
    const cbView = chain.receipt(cb.id)!.receipt as { Action: { input_data_ids: string[] } };
    expect(cbView.Action.input_data_ids).toHaveLength(2);
  });

  it("a panicking call is rolled back: state and storage untouched, logs kept, gas charged, deposit refunded", async () => {
    const chain = await chainWithProbes();
    const usage = chain.at(chain.head()).account(ALICE)!.storageUsage;
    const a0 = balanceOf(chain, ALICE);
    const c0 = balanceOf(chain, CAROL);
    const o = outcomeOf(settle(chain, submit(chain, CAROL, ALICE, [call("write_then_panic", "", undefined, NEAR)])));
    expect(o.status).toEqual({
      Failure: { ActionError: { index: 0, kind: { FunctionCallError: { ExecutionError: "Smart contract panicked: explicit guest panic" } } } },
    });
    const r = o.receipts_outcome[0]!;
    expect(r.outcome.logs).toEqual(["about to fail"]);
    // Gas: the function call's exec fees plus what the VM burnt before panicking.
    const exec = 108_059_500_000n + 780_000_000_000n + 2_235_934n * BigInt("write_then_panic".length);
    expect(BigInt(r.outcome.gas_burnt)).toBeGreaterThan(exec);
    expect(chain.at(chain.head()).account(ALICE)!.storageUsage).toBe(usage);
    expect(chain.at(chain.head()).shard(chain.shardOf(ALICE)).get(contractDataTrieKey(ALICE, new TextEncoder().encode("key")))).toBeUndefined();
    // The contract still earns its share (3/10) of the gas its code burnt, as in nearcore.
    const vmBurnt = BigInt(r.outcome.gas_burnt) - exec;
    expect(balanceOf(chain, ALICE)).toBe(a0 + ((vmBurnt * 3n) / 10n) * 100_000_000n);
    const txBurnt = BigInt(o.transaction_outcome.outcome.gas_burnt) + BigInt(r.outcome.gas_burnt);
    expect(balanceOf(chain, CAROL)).toBe(c0 - txBurnt * 100_000_000n);
  });

  it("storage usage follows contract data exactly (key + value + 40 per record)", async () => {
    const chain = await chainWithProbes();
    const usage = chain.at(chain.head()).account(ALICE)!.storageUsage;
    const o = outcomeOf(settle(chain, submit(chain, CAROL, ALICE, [call("put")])));
    expect(o.status).toEqual({ SuccessValue: "" });
    expect(chain.at(chain.head()).account(ALICE)!.storageUsage).toBe(usage + 3 + 5 + 40);
    // The receipt's gas profile: nearcore's host and action costs, then WASM_INSTRUCTION for the rest.
    const r = o.receipts_outcome[0]!.outcome;
    const profile = r.metadata.gas_profile!;
    expect(r.metadata.version).toBe(4);
    expect(profile.map((e) => `${e.cost_category}:${e.cost}`)).toEqual(
      [
        "BASE",
        "CONTRACT_LOADING_BASE",
        "CONTRACT_LOADING_BYTES",
        "READ_MEMORY_BASE",
        "READ_MEMORY_BYTE",
        "STORAGE_WRITE_BASE",
        "STORAGE_WRITE_KEY_BYTE",
        "STORAGE_WRITE_VALUE_BYTE",
        "WASM_INSTRUCTION",
      ].map((c) => `WASM_HOST_COST:${c}`),
    );
    expect(profile.find((e) => e.cost === "STORAGE_WRITE_BASE")!.gas_used).toBe("64196736000");
    const exec = 108_059_500_000n + 780_000_000_000n + 2_235_934n * 3n;
    expect(profile.reduce((s, e) => s + BigInt(e.gas_used), 0n)).toBe(BigInt(r.gas_burnt) - exec);
    settle(chain, submit(chain, CAROL, ALICE, [call("put")])); // overwrite with the same length
    expect(chain.at(chain.head()).account(ALICE)!.storageUsage).toBe(usage + 48);
  });

  it("deposits attached to promises leave the contract's balance and arrive at the receiver", async () => {
    const chain = await chainWithProbes();
    const a0 = balanceOf(chain, ALICE);
    const b0 = balanceOf(chain, BOB);
    const o = outcomeOf(settle(chain, submit(chain, CAROL, ALICE, [call("send", BOB, undefined, 3n * NEAR)])));
    expect(o.status).toEqual({ SuccessValue: "" });
    expect(balanceOf(chain, BOB)).toBe(b0 + 3n * NEAR);
    // Alice keeps nothing of the deposit but earns the contract reward share of burnt VM gas.
    expect(balanceOf(chain, ALICE)).toBeGreaterThanOrEqual(a0);
    expect(balanceOf(chain, ALICE) - a0).toBeLessThan(NEAR / 1000n);
    expect(sumOfBalances(chain)).toBe(BigInt(chain.head().view.header.total_supply));
  });

  it("a receipt the contract creates is validated: a too-long method name fails the call with NewReceiptValidationError", async () => {
    const chain = await openChain();
    const code = contract(
      `(import "env" "current_account_id" (func $current (param i64)))
       (import "env" "promise_create" (func $create (param i64 i64 i64 i64 i64 i64 i64 i64) (result i64)))`,
      `(func (export "long_name")
         (call $current (i64.const 0))
         (memory.fill (i32.const 0) (i32.const 109) (i32.const 300))
         (drop (call $create (i64.const -1) (i64.const 0) (i64.const 300) (i64.const 0) (i64.const 0) (i64.const 0) (i64.const 512) (i64.const 1000000000000))))`,
    );
    deploy(chain, ALICE, code);
    const o = outcomeOf(settle(chain, submit(chain, CAROL, ALICE, [call("long_name")])));
    expect(o.status).toEqual({
      Failure: {
        ActionError: {
          index: 0,
          kind: { NewReceiptValidationError: { ActionsValidation: { FunctionCallMethodNameLengthExceeded: { length: 300, limit: 256 } } } },
        },
      },
    });
    expect(o.receipts_outcome[0]!.outcome.receipt_ids).toHaveLength(1); // only the gas refund
  });

  it("storage a call adds must be paid for: LackBalanceForState after the call, its writes undone", async () => {
    const chain = await openChain();
    const poor = `poor.${CAROL}`;
    const key = keyOf("poor contract key");
    const created = outcomeOf(
      settle(
        chain,
        submit(chain, CAROL, poor, [
          { type: "CreateAccount" },
          { type: "Transfer", deposit: NEAR },
          { type: "AddKey", publicKey: key.publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } },
          { type: "DeployContract", code: PROBE },
        ]),
      ),
    );
    expect(created.status).toEqual({ SuccessValue: "" });
    const usage = BigInt(chain.at(chain.head()).account(poor)!.storageUsage);
    // Leave the account exactly 30 bytes of headroom, then ask the contract to store 48 more.
    // (The transfer's receipt gas is bought at the purchase price and the surplus comes back
    // after it, worth about 20 bytes: the account must hold that much more in between.)
    const keep = (usage + 30n) * 10n ** 19n;
    const send = balanceOf(chain, poor) - keep - 2n * TRANSFER_GAS * GAS_PRICE;
    settle(chain, submit(chain, poor, CAROL, [{ type: "Transfer", deposit: send }], { key }));
    expect(balanceOf(chain, poor)).toBe(keep);
    const o = outcomeOf(settle(chain, submit(chain, CAROL, poor, [call("put")])));
    expect(o.status).toEqual({
      Failure: { ActionError: { index: null, kind: { LackBalanceForState: { account_id: poor, amount: (18n * 10n ** 19n).toString() } } } },
    });
    expect(chain.at(chain.head()).account(poor)!.storageUsage).toBe(Number(usage));
  });
});
