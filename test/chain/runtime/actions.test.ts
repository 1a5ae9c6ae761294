import { describe, expect, it } from "vitest";
import { base58Encode } from "@shardkit/primitives/base58";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import { encodeAccessKey } from "@shardkit/primitives/accessKey";
import type { Action } from "../../../src/chain/transaction/index.js";
import {
  ALICE,
  BOB,
  GAS_PRICE,
  NEAR,
  PURCHASE_PRICE,
  ROOT,
  TRANSFER_GAS,
  balanceOf,
  keyOf,
  openChain,
  outcomeOf,
  priceSurplus,
  settle,
  submit,
} from "./helpers.js";

const fullKey = (label: string): Action => ({ type: "AddKey", publicKey: keyOf(label).publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } });
const fcKey = (label: string, allowance: bigint | null, receiverId: string, methodNames: string[]): Action => ({
  type: "AddKey",
  publicKey: keyOf(label).publicKey,
  accessKey: { nonce: 0n, permission: { FunctionCall: { allowance, receiverId, methodNames } } },
});
const failureOf = (index: number | null, kind: unknown) => ({ Failure: { ActionError: { index, kind } } });

describe("CreateAccount and AddKey", () => {
  it("creates a sub-account with keys, exact storage usage and key nonces", async () => {
    const chain = await openChain();
    const id = `new.${ALICE}`;
    const s = settle(
      chain,
      submit(chain, ALICE, id, [
        { type: "CreateAccount" },
        { type: "Transfer", deposit: 5n * NEAR },
        fullKey("owner"),
        fcKey("app", NEAR, BOB, ["m1", "m2"]),
      ]),
    );
    expect(outcomeOf(s).status).toEqual({ SuccessValue: "" });
    const receiptHeight = chain.blockByHash(outcomeOf(s).receipts_outcome[0]!.block_hash)!.height;
    const account = chain.at(chain.head()).account(id)!;
    const fcBytes = encodeAccessKey({ nonce: 0n, permission: { FunctionCall: { allowance: NEAR, receiverId: BOB, methodNames: ["m1", "m2"] } } }).length;
    expect(account.amount).toBe(5n * NEAR);
    expect(account.storageUsage).toBe(100 + (33 + 9 + 40) + (33 + fcBytes + 40));
    for (const label of ["owner", "app"]) {
      expect(chain.at(chain.head()).accessKey(id, formatPublicKey(keyOf(label).publicKey))!.nonce).toBe(BigInt(receiptHeight - 1) * 1_000_000n);
    }
    // The new account signs with its own key.
    const t = settle(chain, submit(chain, id, BOB, [{ type: "Transfer", deposit: NEAR }], { key: keyOf("owner") }));
    expect(outcomeOf(t).status).toEqual({ SuccessValue: "" });
  });

  it("refuses ids the predecessor may not create, and existing ones", async () => {
    const chain = await openChain();
    const statusOf = (receiver: string) => outcomeOf(settle(chain, submit(chain, ALICE, receiver, [{ type: "CreateAccount" }]))).status;
    expect(statusOf(`x.${BOB}`)).toEqual(failureOf(0, { CreateAccountNotAllowed: { account_id: `x.${BOB}`, predecessor_id: ALICE } }));
    expect(statusOf(`x.y.${ALICE}`)).toEqual(failureOf(0, { CreateAccountNotAllowed: { account_id: `x.y.${ALICE}`, predecessor_id: ALICE } }));
    expect(statusOf("toplevel")).toEqual(
      failureOf(0, { CreateAccountOnlyByRegistrar: { account_id: "toplevel", registrar_account_id: "registrar", predecessor_id: ALICE } }),
    );
    expect(statusOf(BOB)).toEqual(failureOf(0, { AccountAlreadyExists: { account_id: BOB } }));
    expect(statusOf("cd".repeat(32))).toEqual(failureOf(0, { OnlyImplicitAccountCreationAllowed: { account_id: "cd".repeat(32) } }));
  });

  it("AddKeyAlreadyExists, DeleteKeyDoesNotExist and ActorNoPermission", async () => {
    const chain = await openChain();
    const own = formatPublicKey(keyOf("own").publicKey);
    settle(chain, submit(chain, ALICE, ALICE, [fullKey("own")]));
    expect(outcomeOf(settle(chain, submit(chain, ALICE, ALICE, [fullKey("own")]))).status).toEqual(
      failureOf(0, { AddKeyAlreadyExists: { account_id: ALICE, public_key: own } }),
    );
    const missing = formatPublicKey(keyOf("missing").publicKey);
    expect(outcomeOf(settle(chain, submit(chain, ALICE, ALICE, [{ type: "DeleteKey", publicKey: keyOf("missing").publicKey }]))).status).toEqual(
      failureOf(0, { DeleteKeyDoesNotExist: { account_id: ALICE, public_key: missing } }),
    );
    expect(outcomeOf(settle(chain, submit(chain, ALICE, BOB, [fullKey("steal")]))).status).toEqual(
      failureOf(0, { ActorNoPermission: { account_id: BOB, actor_id: ALICE } }),
    );
  });

  it("DeleteKey releases the key's storage", async () => {
    const chain = await openChain();
    const before = chain.at(chain.head()).account(ALICE)!.storageUsage;
    settle(chain, submit(chain, ALICE, ALICE, [fullKey("tmp")]));
    expect(chain.at(chain.head()).account(ALICE)!.storageUsage).toBe(before + 82);
    settle(chain, submit(chain, ALICE, ALICE, [{ type: "DeleteKey", publicKey: keyOf("tmp").publicKey }]));
    expect(chain.at(chain.head()).account(ALICE)!.storageUsage).toBe(before);
    expect(chain.at(chain.head()).accessKey(ALICE, formatPublicKey(keyOf("tmp").publicKey))).toBeUndefined();
  });
});

describe("function-call keys", () => {
  it("spend their allowance at conversion and get the gas refund back", async () => {
    const chain = await openChain();
    const allowance = NEAR / 4n;
    settle(chain, submit(chain, ALICE, ALICE, [fcKey("fc", allowance, BOB, [])]));
    const gas = 10n ** 13n;
    const s = settle(chain, submit(chain, ALICE, BOB, [{ type: "FunctionCall", methodName: "anything", args: new Uint8Array(0), gas, deposit: 0n }], { key: keyOf("fc") }));
    const o = outcomeOf(s);
    expect(o.status).toEqual(failureOf(0, { FunctionCallError: { CompilationError: { CodeDoesNotExist: { account_id: BOB } } } }));
    const bytes = 8n;
    const send = 108_059_500_000n + 200_000_000_000n + 47_683_715n * bytes;
    const exec = 108_059_500_000n + 780_000_000_000n + 2_235_934n * bytes;
    const key = chain.at(chain.head()).accessKey(ALICE, formatPublicKey(keyOf("fc").publicKey))!;
    // Charged send + exec + attached gas; the unused attached gas (at the purchase price) and
    // the price surplus on the burnt gas came back as a gas refund.
    expect(key.permission).toEqual({ FunctionCall: { allowance: allowance - (send + exec) * GAS_PRICE, receiverId: BOB, methodNames: [] } });
    const refund = o.receipts_outcome[1]!;
    expect(chain.receipt(refund.id)!.receipt).toMatchObject({
      Action: {
        signer_id: ALICE,
        signer_public_key: formatPublicKey(keyOf("fc").publicKey),
        gas_price: "0",
        actions: [{ Transfer: { deposit: (gas * PURCHASE_PRICE + priceSurplus(exec)).toString() } }],
      },
    });
  });
});

describe("FunctionCall on an account without runnable code", () => {
  it("fails on an account without code exactly as nearcore does, refunding gas and deposit", async () => {
    const chain = await openChain();
    const a0 = balanceOf(chain, ALICE);
    const b0 = balanceOf(chain, BOB);
    const gas = 30n * 10n ** 12n;
    const args = new TextEncoder().encode('{"x":1}');
    const s = settle(chain, submit(chain, ALICE, BOB, [{ type: "FunctionCall", methodName: "do_it", args, gas, deposit: NEAR }]));
    const o = outcomeOf(s);
    const failure = {
      Failure: { ActionError: { index: 0, kind: { FunctionCallError: { CompilationError: { CodeDoesNotExist: { account_id: BOB } } } } } },
    };
    expect(o.status).toEqual(failure);
    expect(o.receipts_outcome[0]!.outcome.status).toEqual(failure);
    const bytes = BigInt(5 + args.length);
    const send = 108_059_500_000n + 200_000_000_000n + 47_683_715n * bytes;
    const exec = 108_059_500_000n + 780_000_000_000n + 2_235_934n * bytes;
    expect(o.transaction_outcome.outcome.gas_burnt).toBe(Number(send));
    expect(o.receipts_outcome[0]!.outcome.gas_burnt).toBe(Number(exec));
    // Deposit refund first, then the gas refund: the last receipt id is the gas refund.
    const [, depositRefund, gasRefund] = o.receipts_outcome;
    expect(o.receipts_outcome[0]!.outcome.receipt_ids).toEqual([depositRefund!.id, gasRefund!.id]);
    expect(chain.receipt(depositRefund!.id)!.receipt).toMatchObject({ Action: { signer_id: "system", actions: [{ Transfer: { deposit: NEAR.toString() } }] } });
    const gasRefundAmount = gas * PURCHASE_PRICE + priceSurplus(exec);
    expect(chain.receipt(gasRefund!.id)!.receipt).toMatchObject({ Action: { signer_id: ALICE, actions: [{ Transfer: { deposit: gasRefundAmount.toString() } }] } });
    expect(balanceOf(chain, ALICE)).toBe(a0 - (send + exec) * GAS_PRICE);
    expect(balanceOf(chain, BOB)).toBe(b0);
  });

  it("reports malformed code as nearcore's CompilationError (PrepareError Deserialization)", async () => {
    const chain = await openChain();
    settle(chain, submit(chain, ALICE, ALICE, [{ type: "DeployContract", code: new Uint8Array([0, 97, 115, 109]) }]));
    const o = outcomeOf(settle(chain, submit(chain, BOB, ALICE, [{ type: "FunctionCall", methodName: "m", args: new Uint8Array(0), gas: 10n ** 12n, deposit: 0n }])));
    expect(o.status).toEqual(failureOf(0, { FunctionCallError: { CompilationError: { PrepareError: "Deserialization" } } }));
  });
});

describe("DeployContract", () => {
  it("stores code, sets code_hash = sha256(code) and accounts its bytes", async () => {
    const chain = await openChain();
    const before = chain.at(chain.head()).account(ALICE)!.storageUsage;
    const code = new Uint8Array(3000).map((_, i) => i % 251);
    settle(chain, submit(chain, ALICE, ALICE, [{ type: "DeployContract", code }]));
    let account = chain.at(chain.head()).account(ALICE)!;
    expect(account.codeHash).toBe(base58Encode(sha256(code)));
    expect(account.storageUsage).toBe(before + 3000);
    expect(chain.at(chain.head()).code(ALICE)).toEqual(code);
    const smaller = new Uint8Array(10).fill(1);
    settle(chain, submit(chain, ALICE, ALICE, [{ type: "DeployContract", code: smaller }]));
    account = chain.at(chain.head()).account(ALICE)!;
    expect(account.storageUsage).toBe(before + 10);
    expect(account.codeHash).toBe(base58Encode(sha256(smaller)));
  });

  it("LackBalanceForState when the account cannot pay for the new storage (index null), deposit refunded", async () => {
    const chain = await openChain();
    const id = `poor.${ALICE}`;
    const a0 = balanceOf(chain, ALICE);
    const o = outcomeOf(
      settle(chain, submit(chain, ALICE, id, [{ type: "CreateAccount" }, { type: "Transfer", deposit: 1n }, { type: "DeployContract", code: new Uint8Array(1000) }])),
    );
    expect(o.status).toEqual(failureOf(null, { LackBalanceForState: { account_id: id, amount: (1100n * 10n ** 19n - 1n).toString() } }));
    expect(chain.at(chain.head()).account(id)).toBeUndefined();
    const refund = chain.receipt(o.receipts_outcome[0]!.outcome.receipt_ids[0]!)!;
    expect(refund.receipt).toMatchObject({ Action: { signer_id: "system", actions: [{ Transfer: { deposit: "1" } }] } });
    const spent = a0 - balanceOf(chain, ALICE);
    const fees = (BigInt(o.transaction_outcome.outcome.gas_burnt) + BigInt(o.receipts_outcome[0]!.outcome.gas_burnt)) * GAS_PRICE;
    // Whatever execution gas was prepaid but not burnt came back too.
    expect(spent).toBe(fees);
  });
});

describe("failed receipts", () => {
  it("roll back every action of the receipt", async () => {
    const chain = await openChain();
    const before = chain.at(chain.head()).account(ALICE)!;
    const o = outcomeOf(settle(chain, submit(chain, ALICE, ALICE, [fullKey("k1"), { type: "DeployContract", code: new Uint8Array(10) }, { type: "DeleteKey", publicKey: keyOf("nope").publicKey }])));
    expect(o.status).toMatchObject(failureOf(2, { DeleteKeyDoesNotExist: {} }));
    expect(chain.at(chain.head()).accessKey(ALICE, formatPublicKey(keyOf("k1").publicKey))).toBeUndefined();
    const after = chain.at(chain.head()).account(ALICE)!;
    expect(after.storageUsage).toBe(before.storageUsage);
    expect(after.codeHash).toBe(before.codeHash);
    expect(chain.at(chain.head()).code(ALICE)).toBeUndefined();
    // Only the gas burnt was lost: two fees up to the failing action.
    const burnt = BigInt(o.transaction_outcome.outcome.gas_burnt) + BigInt(o.receipts_outcome[0]!.outcome.gas_burnt);
    expect(after.amount).toBe(before.amount - burnt * GAS_PRICE);
  });

  it("a failed CreateAccount receipt leaves no account behind", async () => {
    const chain = await openChain();
    const id = `gone.${ALICE}`;
    const o = outcomeOf(settle(chain, submit(chain, ALICE, id, [{ type: "CreateAccount" }, fullKey("x"), { type: "DeleteKey", publicKey: keyOf("y").publicKey }])));
    expect(o.status).toMatchObject(failureOf(2, { DeleteKeyDoesNotExist: { account_id: id } }));
    expect(chain.at(chain.head()).account(id)).toBeUndefined();
    expect(chain.at(chain.head()).accessKeys(id)).toEqual([]);
  });
});

describe("DeleteAccount", () => {
  it("removes the account and pays its balance to the beneficiary by a receipt from system", async () => {
    const chain = await openChain();
    const id = `tmp.${ALICE}`;
    settle(chain, submit(chain, ALICE, id, [{ type: "CreateAccount" }, { type: "Transfer", deposit: 5n * NEAR }, fullKey("tmp")]));
    const b0 = balanceOf(chain, BOB);
    const remaining = balanceOf(chain, id);
    const s = settle(chain, submit(chain, id, id, [{ type: "DeleteAccount", beneficiaryId: BOB }], { key: keyOf("tmp") }));
    const o = outcomeOf(s);
    expect(o.status).toEqual({ SuccessValue: "" });
    expect(chain.at(chain.head()).account(id)).toBeUndefined();
    expect(chain.at(chain.head()).accessKeys(id)).toEqual([]);
    const send = BigInt(o.transaction_outcome.outcome.gas_burnt);
    const exec = BigInt(o.receipts_outcome[0]!.outcome.gas_burnt);
    // The signer paid the fees from its balance at conversion (the receipt's gas at the
    // purchase price); what was left went to bob. The price-surplus refund then finds no
    // account and is burnt, as in nearcore.
    expect(balanceOf(chain, BOB)).toBe(b0 + remaining - send * GAS_PRICE - exec * PURCHASE_PRICE);
    const payout = chain.receipt(o.receipts_outcome[0]!.outcome.receipt_ids[0]!)!;
    expect(payout).toMatchObject({ predecessor_id: "system", receiver_id: BOB, receipt: { Action: { signer_id: "system", gas_price: "0" } } });
    expect(s.finalExecutionStatus).toBe("FINAL");
  });

  it("DeleteAccountStaking and DeleteAccountWithLargeState", async () => {
    const chain = await openChain();
    settle(chain, submit(chain, ALICE, ALICE, [{ type: "Stake", stake: NEAR, publicKey: keyOf("v").publicKey }]));
    expect(outcomeOf(settle(chain, submit(chain, ALICE, ALICE, [{ type: "DeleteAccount", beneficiaryId: BOB }]))).status).toEqual(
      failureOf(0, { DeleteAccountStaking: { account_id: ALICE } }),
    );
    const kv = "kv.test.near";
    expect(outcomeOf(settle(chain, submit(chain, kv, kv, [{ type: "DeleteAccount", beneficiaryId: BOB }]))).status).toEqual(
      failureOf(0, { DeleteAccountWithLargeState: { account_id: kv } }),
    );
  });

  it("burns the payout when the beneficiary does not exist", async () => {
    const chain = await openChain();
    const id = `tmp.${ALICE}`;
    settle(chain, submit(chain, ALICE, id, [{ type: "CreateAccount" }, { type: "Transfer", deposit: 5n * NEAR }, fullKey("tmp")]));
    const supply = BigInt(chain.head().view.header.total_supply);
    const o = outcomeOf(settle(chain, submit(chain, id, id, [{ type: "DeleteAccount", beneficiaryId: "ghost.test.near" }], { key: keyOf("tmp") })));
    const payout = o.receipts_outcome[1]!;
    expect(payout.outcome.status).toEqual(failureOf(0, { AccountDoesNotExist: { account_id: "ghost.test.near" } }));
    expect(payout.outcome.receipt_ids).toEqual([]); // refunds are never refunded
    const fees = (BigInt(o.transaction_outcome.outcome.gas_burnt) + BigInt(o.receipts_outcome[0]!.outcome.gas_burnt)) * GAS_PRICE;
    expect(BigInt(chain.head().view.header.total_supply)).toBe(supply - fees - (5n * NEAR - fees));
  });
});

describe("Stake", () => {
  it("locks at once, reports the proposal, and returns an unstake at the next epoch boundary", async () => {
    const chain = await openChain({ epochLength: 5 });
    const a0 = balanceOf(chain, ALICE);
    const pk = formatPublicKey(keyOf("validator").publicKey);
    const s = settle(chain, submit(chain, ALICE, ALICE, [{ type: "Stake", stake: 1000n * NEAR, publicKey: keyOf("validator").publicKey }]), "EXECUTED_OPTIMISTIC");
    const o = outcomeOf(s);
    // EXECUTED_OPTIMISTIC does not wait for the gas refund: the receipt's gas is still paid
    // at the purchase price.
    const fees = BigInt(o.transaction_outcome.outcome.gas_burnt) * GAS_PRICE + BigInt(o.receipts_outcome[0]!.outcome.gas_burnt) * PURCHASE_PRICE;
    let view = chain.at(chain.head()).account(ALICE)!;
    expect(view.locked).toBe(1000n * NEAR);
    expect(view.amount).toBe(a0 - 1000n * NEAR - fees);
    const receiptBlock = chain.blockByHash(o.receipts_outcome[0]!.block_hash)!;
    const proposal = { account_id: ALICE, public_key: pk, stake: (1000n * NEAR).toString(), validator_stake_struct_version: "V1" };
    expect(receiptBlock.view.chunks.find((c) => c.shard_id === chain.shardOf(ALICE))!.validator_proposals).toEqual([proposal]);
    expect(receiptBlock.view.header.validator_proposals).toEqual([proposal]);

    // Unstake 400: still locked until the first block of the next epoch.
    const u = settle(chain, submit(chain, ALICE, ALICE, [{ type: "Stake", stake: 600n * NEAR, publicKey: keyOf("validator").publicKey }]), "EXECUTED_OPTIMISTIC");
    const unstakeHeight = chain.blockByHash(outcomeOf(u).receipts_outcome[0]!.block_hash)!.height;
    expect(chain.at(chain.head()).account(ALICE)!.locked).toBe(1000n * NEAR);
    const nextEpochStart = Math.floor((unstakeHeight - 1) / 5 + 1) * 5 + 1; // heights 1-5, 6-10, ...
    while (chain.head().height < nextEpochStart - 1) chain.produceBlock();
    const beforeReturn = chain.at(chain.head()).account(ALICE)!;
    expect(beforeReturn.locked).toBe(1000n * NEAR);
    chain.produceBlock();
    view = chain.at(chain.head()).account(ALICE)!;
    expect(view.locked).toBe(600n * NEAR);
    expect(view.amount).toBe(beforeReturn.amount + 400n * NEAR);
  });

  it("TriesToUnstake, TriesToStake and InsufficientStake", async () => {
    const chain = await openChain({ minimumStake: 10n * NEAR });
    const v = keyOf("v").publicKey;
    const statusOf = (stake: bigint) => outcomeOf(settle(chain, submit(chain, BOB, BOB, [{ type: "Stake", stake, publicKey: v }]))).status;
    expect(statusOf(0n)).toEqual(failureOf(0, { TriesToUnstake: { account_id: BOB } }));
    const balance = balanceOf(chain, BOB);
    const tooMuch = 20_000n * NEAR;
    // The balance seen by the action is after the transaction's cost was charged.
    expect(statusOf(tooMuch)).toMatchObject(failureOf(0, { TriesToStake: { account_id: BOB, stake: tooMuch.toString(), locked: "0" } }));
    expect(BigInt((statusOf(tooMuch) as { Failure: { ActionError: { kind: { TriesToStake: { balance: string } } } } }).Failure.ActionError.kind.TriesToStake.balance)).toBeLessThan(balance);
    expect(statusOf(NEAR)).toEqual(failureOf(0, { InsufficientStake: { account_id: BOB, stake: NEAR.toString(), minimum_stake: (10n * NEAR).toString() } }));
    expect(outcomeOf(settle(chain, submit(chain, BOB, BOB, [{ type: "Stake", stake: 10n * NEAR, publicKey: v }]))).status).toEqual({ SuccessValue: "" });
  });
});

describe("ROOT sanity", () => {
  it("the dev root account can fund others", async () => {
    const chain = await openChain();
    const o = outcomeOf(settle(chain, submit(chain, ROOT, ALICE, [{ type: "Transfer", deposit: NEAR }])));
    expect(o.receipts_outcome[0]!.outcome.gas_burnt).toBe(Number(TRANSFER_GAS));
  });
});
