import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { deriveDeterministicAccountId } from "@shardkit/primitives/deterministicAccountId";
import type { Chain } from "../../../src/chain/node.js";
import { NEARCORE_RUNTIME_PARAMETERS as P } from "../../../src/chain/runtime/parameters.js";
import { globalContractCodeKey } from "../../../src/chain/runtime/runtimeTrieKeys.js";
import { validateActions } from "../../../src/chain/runtime/validateActions.js";
import type { Action, DeterministicAccountStateInit, DeterministicStateInitAction } from "../../../src/chain/transaction/index.js";
import { devKeyPair } from "../../../src/chain/genesis/devKey.js";
import { signDelegateAction } from "../../../src/chain/transaction/index.js";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import {
  ALICE,
  BOB,
  CAROL,
  CREATE_ACCOUNT_CHARGE,
  GAS_PRICE,
  NEAR,
  balanceOf,
  openChain,
  outcomeOf,
  settle,
  submit,
  sumOfBalances,
} from "./helpers.js";

/*
 * DeterministicStateInit (NEP-616, protocol 82; delegated from 85) on the chain. The global
 * contract is the kv fixture deployed by ALICE by account id; the dev chain's gas price is 10^8
 * (receipt gas bought at 10^9, NEP-642).
 */

const KV = readFileSync(new URL("../../../contracts/build/kv.wasm", import.meta.url));
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const failureOf = (index: number | null, kind: unknown) => ({ Failure: { ActionError: { index, kind } } });
const RECEIPT = P.fees.actionReceiptCreation.execution;
const f = P.fees;

function stateInit(data: [string, Uint8Array | string][], accountId = ALICE): DeterministicAccountStateInit {
  const entries = data.map(([k, v]) => [utf8(k), typeof v === "string" ? utf8(v) : v] as const);
  entries.sort((a, b) => Buffer.compare(Buffer.from(a[0]), Buffer.from(b[0])));
  return { version: "V1", code: { kind: "AccountId", accountId }, data: entries };
}
const init = (s: DeterministicAccountStateInit, deposit: bigint): DeterministicStateInitAction => ({ type: "DeterministicStateInit", stateInit: s, deposit });

/** A chain where ALICE's kv contract (by account id) has reached every shard. */
async function chainWithGlobalKv(): Promise<Chain> {
  const chain = await openChain();
  settle(chain, submit(chain, ALICE, ALICE, [{ type: "DeployGlobalContract", code: KV, deployMode: "AccountId" }]));
  const key = globalContractCodeKey({ kind: "AccountId", accountId: ALICE });
  for (let i = 0; i < 10; i++) {
    const head = chain.head();
    if (chain.shardLayout.shardIds.every((s) => chain.at(head).shard(s).get(key) !== undefined)) break;
    chain.produceBlock();
  }
  return chain;
}

const get = (chain: Chain, accountId: string, key: string): string => {
  const r = chain.at(chain.head()).callFunction(accountId, "get", Buffer.from(JSON.stringify({ key })));
  if (!r.ok) throw new Error(`get failed: ${JSON.stringify(r)}`);
  return Buffer.from(r.result).toString();
};

describe("DeterministicStateInit", () => {
  it("creates the derived account with the global contract and the data; a zero-balance account gets the whole deposit back", async () => {
    const chain = await chainWithGlobalKv();
    const s = stateInit([["root", "bob"]]);
    const id = deriveDeterministicAccountId(s);
    const b0 = balanceOf(chain, BOB);
    const supply0 = sumOfBalances(chain);
    const o = outcomeOf(settle(chain, submit(chain, BOB, id, [init(s, NEAR)])));
    expect(o.status).toEqual({ SuccessValue: "" });
    // Fees: base, one entry, 7 bytes ("root" + "bob"); send at conversion, execution on the receiver.
    const send = RECEIPT + f.deterministicStateInitBase.sendNotSir + f.deterministicStateInitPerByte.sendNotSir * 7n;
    const exec = RECEIPT + f.deterministicStateInitBase.execution + f.deterministicStateInitPerEntry.execution + f.deterministicStateInitPerByte.execution * 7n;
    expect(send).toBe(608_563_500_000n);
    expect(exec).toBe(7_738_549_500_000n);
    expect(o.transaction_outcome.outcome.gas_burnt).toBe(Number(send));
    const main = o.receipts_outcome[0]!;
    expect(main.outcome.gas_burnt).toBe(Number(exec));
    // The account is created by the receipt: NEP-642's creation charge applies.
    expect(main.outcome.tokens_burnt).toBe((exec * GAS_PRICE + CREATE_ACCOUNT_CHARGE).toString());
    // 100 (account) + 15 (identifier "alice.test.near") + 4 + 3 + 40 (the record) = 162 ≤ 770: a zero-balance account.
    const account = chain.at(chain.head()).account(id)!;
    expect(account).toMatchObject({ amount: 0n, locked: 0n, storageUsage: 162, globalContractAccountId: ALICE, codeHash: "11111111111111111111111111111111" });
    expect(account.globalContractHash).toBeUndefined();
    // The whole deposit comes back to the predecessor in its own refund receipt.
    const refunds = main.outcome.receipt_ids.map((r) => chain.receipt(r)!);
    expect(refunds).toContainEqual(
      expect.objectContaining({ predecessor_id: "system", receiver_id: BOB, receipt: expect.objectContaining({ Action: expect.objectContaining({ actions: [{ Transfer: { deposit: NEAR.toString() } }] }) }) }),
    );
    expect(balanceOf(chain, BOB)).toBe(b0 - (send + exec) * GAS_PRICE - CREATE_ACCOUNT_CHARGE);
    expect(sumOfBalances(chain)).toBe(supply0 - (send + exec) * GAS_PRICE - CREATE_ACCOUNT_CHARGE);
    // The contract runs on the account and reads the initial data.
    expect(get(chain, id, "root")).toBe('"bob"');
  });

  it("above the zero-balance limit the deposit pays exactly the storage and the rest is refunded; without it LackBalanceForState", async () => {
    const chain = await chainWithGlobalKv();
    const s = stateInit([["key", new Uint8Array(1000)]]);
    const id = deriveDeterministicAccountId(s);
    // 100 + 15 + 3 + 1000 + 40 bytes × 10^19.
    const required = 1158n * 10n ** 19n;
    const none = outcomeOf(settle(chain, submit(chain, BOB, id, [init(s, 0n)])));
    // The receipt's storage check after the actions fails, with no action index (as nearcore's).
    expect(none.status).toEqual(failureOf(null, { LackBalanceForState: { account_id: id, amount: required.toString() } }));
    expect(chain.at(chain.head()).account(id)).toBeUndefined();

    const b0 = balanceOf(chain, BOB);
    const o = outcomeOf(settle(chain, submit(chain, BOB, id, [init(s, NEAR)])));
    expect(o.status).toEqual({ SuccessValue: "" });
    const exec = RECEIPT + f.deterministicStateInitBase.execution + f.deterministicStateInitPerEntry.execution + f.deterministicStateInitPerByte.execution * 1003n;
    expect(o.receipts_outcome[0]!.outcome.gas_burnt).toBe(Number(exec));
    expect(chain.at(chain.head()).account(id)).toMatchObject({ amount: required, storageUsage: 1158 });
    const send = RECEIPT + f.deterministicStateInitBase.sendNotSir + f.deterministicStateInitPerByte.sendNotSir * 1003n;
    expect(balanceOf(chain, BOB)).toBe(b0 - required - (send + exec) * GAS_PRICE - CREATE_ACCOUNT_CHARGE);
  });

  it("is a no-op on an account that already has its contract: the deposit comes back, the data stays", async () => {
    const chain = await chainWithGlobalKv();
    const s = stateInit([["root", "bob"]]);
    const id = deriveDeterministicAccountId(s);
    settle(chain, submit(chain, BOB, id, [init(s, 0n)]));
    settle(chain, submit(chain, BOB, id, [{ type: "FunctionCall", methodName: "set", args: Buffer.from(JSON.stringify({ key: "root", value: "changed" })), gas: 30_000_000_000_000n, deposit: 0n }]));
    const c0 = balanceOf(chain, CAROL);
    const before = chain.at(chain.head()).account(id)!;
    const o = outcomeOf(settle(chain, submit(chain, CAROL, id, [init(s, NEAR)])));
    expect(o.status).toEqual({ SuccessValue: "" });
    expect(chain.at(chain.head()).account(id)).toEqual(before);
    expect(get(chain, id, "root")).toBe('"changed"');
    const send = BigInt(o.transaction_outcome.outcome.gas_burnt);
    const exec = BigInt(o.receipts_outcome[0]!.outcome.gas_burnt);
    // No account was created, so no creation charge.
    expect(balanceOf(chain, CAROL)).toBe(c0 - (send + exec) * GAS_PRICE);
  });

  it("a lone Transfer creates the deterministic account without key or contract; a later init with no deposit uses that balance", async () => {
    const chain = await chainWithGlobalKv();
    const s = stateInit([["key", new Uint8Array(1000)]]);
    const id = deriveDeterministicAccountId(s);
    const required = 1158n * 10n ** 19n;
    const t = outcomeOf(settle(chain, submit(chain, CAROL, id, [{ type: "Transfer", deposit: required }])));
    expect(t.status).toEqual({ SuccessValue: "" });
    // A transfer to a new deterministic account pays for creating it (transfer + create_account).
    expect(t.transaction_outcome.outcome.gas_burnt).toBe(Number(RECEIPT + f.transfer.sendNotSir + f.createAccount.sendNotSir));
    expect(t.receipts_outcome[0]!.outcome.gas_burnt).toBe(Number(RECEIPT + f.transfer.execution + f.createAccount.execution));
    expect(chain.at(chain.head()).account(id)).toMatchObject({ amount: required, storageUsage: 100, codeHash: "11111111111111111111111111111111" });
    expect(chain.at(chain.head()).account(id)!.globalContractAccountId).toBeUndefined();
    expect(chain.at(chain.head()).accessKey(id, "ed25519:11111111111111111111111111111111")).toBeUndefined();
    const o = outcomeOf(settle(chain, submit(chain, BOB, id, [init(s, 0n)])));
    expect(o.status).toEqual({ SuccessValue: "" });
    expect(chain.at(chain.head()).account(id)).toMatchObject({ amount: required, storageUsage: 1158, globalContractAccountId: ALICE });
  });

  it("GlobalContractDoesNotExist for an unknown contract; implicit-account rules for 0s ids", async () => {
    const chain = await openChain();
    const s = stateInit([], "nobody.test.near");
    const id = deriveDeterministicAccountId(s);
    expect(outcomeOf(settle(chain, submit(chain, BOB, id, [init(s, NEAR)]))).status).toEqual(
      failureOf(0, { GlobalContractDoesNotExist: { identifier: { AccountId: "nobody.test.near" } } }),
    );
    expect(chain.at(chain.head()).account(id)).toBeUndefined();
    expect(outcomeOf(settle(chain, submit(chain, BOB, id, [{ type: "CreateAccount" }]))).status).toEqual(
      failureOf(0, { OnlyImplicitAccountCreationAllowed: { account_id: id } }),
    );
    // A Transfer creates the account only when it is the receipt's only action.
    const key = devKeyPair(BOB).publicKey;
    expect(outcomeOf(settle(chain, submit(chain, BOB, id, [{ type: "Transfer", deposit: 1n }, { type: "AddKey", publicKey: key, accessKey: { nonce: 0n, permission: "FullAccess" } }]))).status).toEqual(
      failureOf(0, { AccountDoesNotExist: { account_id: id } }),
    );
  });

  it("validation: the receiver must be the derived id, keys and values within the storage limits", async () => {
    const chain = await chainWithGlobalKv();
    const s = stateInit([["root", "bob"]]);
    const id = deriveDeterministicAccountId(s);
    const wrong = "0s1234567890123456789012345678901234567890";
    expect(() => submit(chain, BOB, wrong, [init(s, 0n)])).toThrow(/InvalidDeterministicStateInitReceiver/);
    expect(() => submit(chain, BOB, CAROL, [init(s, 0n)])).toThrow(/InvalidDeterministicStateInitReceiver/);
    expect(validateActions(P, [init(s, 0n)], wrong, 85)).toEqual({ InvalidDeterministicStateInitReceiver: { receiver_id: wrong, derived_id: id } });
    const longKey = stateInit([["k".repeat(2049), "v"]]);
    expect(validateActions(P, [init(longKey, 0n)], deriveDeterministicAccountId(longKey), 85)).toEqual({
      DeterministicStateInitKeyLengthExceeded: { length: 2049, limit: 2048 },
    });
    const longValue = stateInit([["k", new Uint8Array(4_194_305)]]);
    expect(validateActions(P, [init(longValue, 0n)], deriveDeterministicAccountId(longValue), 85)).toEqual({
      DeterministicStateInitValueLengthExceeded: { length: 4_194_305, limit: 4_194_304 },
    });
    const badCode: DeterministicAccountStateInit = { version: "V1", code: { kind: "AccountId", accountId: "Not Valid" }, data: [] };
    expect(validateActions(P, [init(badCode, 0n)], wrong, 85)).toEqual({ InvalidAccountId: { account_id: "Not Valid" } });
    expect(validateActions(P, [init(s, 0n)], id, 81)).toEqual({ UnsupportedProtocolFeature: { protocol_feature: "DeterministicAccountIds", version: 81 } });
  });

  it("inside a Delegate it is checked against the delegate's receiver from protocol 85 (FixDelegatedDeterministicStateInit)", () => {
    const s = stateInit([["root", "bob"]]);
    const id = deriveDeterministicAccountId(s);
    const delegate = (receiverId: string): Action => ({
      type: "Delegate",
      delegateAction: { senderId: BOB, receiverId, actions: [init(s, 0n)], nonce: 1n, maxBlockHeight: 100n, publicKey: devKeyPair(BOB).publicKey },
      signature: { keyType: 0, data: new Uint8Array(64) },
    } as Action);
    expect(validateActions(P, [delegate(id)], BOB, 85)).toBeUndefined();
    expect(validateActions(P, [delegate(id)], BOB, 84)).toEqual({ InvalidDeterministicStateInitReceiver: { receiver_id: BOB, derived_id: id } });
    expect(validateActions(P, [delegate(CAROL)], BOB, 85)).toEqual({ InvalidDeterministicStateInitReceiver: { receiver_id: CAROL, derived_id: id } });
  });

  it("a meta transaction (relayed Delegate) creates the account: the relayer pays, the deposit is refunded to the sender", async () => {
    const chain = await chainWithGlobalKv();
    const s = stateInit([["root", "bob"]]);
    const id = deriveDeterministicAccountId(s);
    const key = devKeyPair(BOB);
    const nonce = (chain.at(chain.head()).accessKey(BOB, formatPublicKey(key.publicKey))?.nonce ?? 0n) + 1n;
    const d = signDelegateAction(
      { senderId: BOB, receiverId: id, actions: [init(s, NEAR)], nonce, maxBlockHeight: BigInt(chain.head().height + 100), publicKey: key.publicKey },
      key,
    );
    const b0 = balanceOf(chain, BOB);
    const o = outcomeOf(settle(chain, submit(chain, CAROL, BOB, [d])));
    expect(o.status).toEqual({ SuccessValue: "" });
    expect(chain.at(chain.head()).account(id)).toMatchObject({ amount: 0n, storageUsage: 162, globalContractAccountId: ALICE });
    expect(get(chain, id, "root")).toBe('"bob"');
    // The relayer paid the deposit with the gas; the unneeded deposit goes to the sender (the inner receipt's predecessor).
    expect(balanceOf(chain, BOB)).toBe(b0 + NEAR);
  });
});
