import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { base58Encode } from "@shardkit/primitives/base58";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import { globalContractCodeKey, type GlobalContractKeyId } from "../../../src/chain/runtime/runtimeTrieKeys.js";
import { NEARCORE_RUNTIME_PARAMETERS as P } from "../../../src/chain/runtime/parameters.js";
import type { Chain } from "../../../src/chain/node.js";
import type { Action } from "../../../src/chain/transaction/index.js";
import { ALICE, BOB, CAROL, GAS_PRICE, NEAR, ROOT, balanceOf, openChain, outcomeOf, settle, submit, sumOfBalances } from "./helpers.js";

const KV = readFileSync(new URL("../../../contracts/build/kv.wasm", import.meta.url));
const FT = readFileSync(new URL("../../../contracts/build/ft.wasm", import.meta.url));
const KV_HASH = sha256(KV);
const byHash: GlobalContractKeyId = { kind: "CodeHash", codeHash: KV_HASH };
const failureOf = (index: number | null, kind: unknown) => ({ Failure: { ActionError: { index, kind } } });
const deploy = (code: Uint8Array, deployMode: "CodeHash" | "AccountId"): Action => ({ type: "DeployGlobalContract", code, deployMode });
const useHash = (codeHash: Uint8Array): Action => ({ type: "UseGlobalContract", contractIdentifier: { kind: "CodeHash", codeHash } });
const useAccount = (accountId: string): Action => ({ type: "UseGlobalContract", contractIdentifier: { kind: "AccountId", accountId } });
const call = (methodName: string, args: unknown): Action => ({
  type: "FunctionCall",
  methodName,
  args: Buffer.from(JSON.stringify(args)),
  gas: 30_000_000_000_000n,
  deposit: 0n,
});

/** Shard ids whose state holds the global contract after block `height` (default: the head). */
function shardsWithCode(chain: Chain, id: GlobalContractKeyId, height = chain.head().height): number[] {
  const block = chain.blockByHeight(height)!;
  return chain.shardLayout.shardIds.filter((s) => chain.at(block).shard(s).get(globalContractCodeKey(id)) !== undefined);
}

/** Produces blocks until every shard has the contract; returns how many blocks it took. */
function distribute(chain: Chain, id: GlobalContractKeyId): number {
  let blocks = 0;
  while (shardsWithCode(chain, id).length < chain.shardLayout.numShards && blocks < 10) {
    chain.produceBlock();
    blocks++;
  }
  return blocks;
}

describe("DeployGlobalContract", () => {
  it("burns the code's storage (0.0001 NEAR a byte) and nearcore's deploy fees, keeps storage usage, and reaches every shard one block apart", async () => {
    const chain = await openChain();
    const before = chain.at(chain.head()).account(ALICE)!;
    const supply = sumOfBalances(chain);
    const s = settle(chain, submit(chain, ALICE, ALICE, [deploy(KV, "CodeHash")]));
    const o = outcomeOf(s);
    expect(o.status).toEqual({ SuccessValue: "" });
    const f = P.fees;
    const len = BigInt(KV.length);
    const send = f.actionReceiptCreation.sendSir + f.deployGlobalContractBase.sendSir + f.deployGlobalContractPerByte.sendSir * len;
    const exec = f.actionReceiptCreation.execution + f.deployGlobalContractBase.execution + f.deployGlobalContractPerByte.execution * len;
    expect(BigInt(o.transaction_outcome.outcome.gas_burnt)).toBe(send);
    expect(BigInt(o.receipts_outcome[0]!.outcome.gas_burnt)).toBe(exec);
    // 10643 bytes × 10^20 yocto, folded into the receipt's tokens_burnt (protocol 83+).
    const storage = len * 100_000_000_000_000_000_000n;
    expect(storage).toBe(1_064_300_000_000_000_000_000_000n);
    expect(BigInt(o.receipts_outcome[0]!.outcome.tokens_burnt)).toBe(exec * GAS_PRICE + storage);
    // The distribution receipt has no outcome and is not among the receipt's receipt_ids; the
    // gas refund (NEP-642's price surplus on the burnt gas) is.
    expect(o.receipts_outcome[0]!.outcome.receipt_ids).toEqual([o.receipts_outcome[1]!.id]);
    const after = chain.at(chain.head()).account(ALICE)!;
    expect(after.amount).toBe(before.amount - (send + exec) * GAS_PRICE - storage);
    expect(after.storageUsage).toBe(before.storageUsage);
    expect(after.codeHash).toBe("11111111111111111111111111111111");
    expect(sumOfBalances(chain)).toBe(supply - (send + exec) * GAS_PRICE - storage);
    const deployHeight = chain.blockByHash(o.receipts_outcome[0]!.block_hash)!.height;
    // Distribution: the deployer's shard (0) in the next block, then shards 1, 2, 3.
    while (chain.head().height < deployHeight + 4) chain.produceBlock();
    const seen = [0, 1, 2, 3, 4].map((i) => shardsWithCode(chain, byHash, deployHeight + i));
    expect(seen).toEqual([[], [0], [0, 1], [0, 1, 2], [0, 1, 2, 3]]);
  });

  it("LackBalanceForState when the balance cannot pay the code's storage; the failure burns only gas", async () => {
    const chain = await openChain();
    const poor = `poor.${ALICE}`;
    settle(chain, submit(chain, ALICE, poor, [{ type: "CreateAccount" }, { type: "Transfer", deposit: NEAR / 2n }, { type: "AddKey", publicKey: (await import("../../../src/chain/genesis/devKey.js")).devKeyPair(poor).publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } }]));
    const s = settle(chain, submit(chain, poor, poor, [deploy(KV, "CodeHash")]));
    const storage = BigInt(KV.length) * 100_000_000_000_000_000_000n;
    expect(outcomeOf(s).status).toEqual(failureOf(0, { LackBalanceForState: { account_id: poor, amount: storage.toString() } }));
    expect(BigInt(outcomeOf(s).receipts_outcome[0]!.outcome.tokens_burnt)).toBe(BigInt(outcomeOf(s).receipts_outcome[0]!.outcome.gas_burnt) * GAS_PRICE);
    expect(shardsWithCode(chain, byHash)).toEqual([]);
  });

  it("ContractSizeExceeded at validation, ActorNoPermission on another account", async () => {
    const chain = await openChain();
    const big = new Uint8Array(P.limits.maxContractSize + 1);
    expect(() => submit(chain, ALICE, ALICE, [deploy(big, "CodeHash")])).toThrow(/ContractSizeExceeded/);
    expect(outcomeOf(settle(chain, submit(chain, ALICE, BOB, [deploy(KV, "AccountId")]))).status).toEqual(
      failureOf(0, { ActorNoPermission: { account_id: BOB, actor_id: ALICE } }),
    );
    expect(outcomeOf(settle(chain, submit(chain, ALICE, BOB, [useHash(KV_HASH)]))).status).toEqual(
      failureOf(0, { ActorNoPermission: { account_id: BOB, actor_id: ALICE } }),
    );
  });
});

describe("UseGlobalContract", () => {
  it("GlobalContractDoesNotExist before the contract reached the account's shard", async () => {
    const chain = await openChain();
    expect(outcomeOf(settle(chain, submit(chain, BOB, BOB, [useHash(KV_HASH)]))).status).toEqual(
      failureOf(0, { GlobalContractDoesNotExist: { identifier: { CodeHash: base58Encode(KV_HASH) } } }),
    );
    expect(outcomeOf(settle(chain, submit(chain, BOB, BOB, [useAccount(ALICE)]))).status).toEqual(
      failureOf(0, { GlobalContractDoesNotExist: { identifier: { AccountId: ALICE } } }),
    );
  });

  it("by code hash: storage usage counts 32 bytes instead of the local code, which is removed; calls run the global code", async () => {
    const chain = await openChain();
    settle(chain, submit(chain, ALICE, ALICE, [deploy(KV, "CodeHash")]));
    expect(distribute(chain, byHash)).toBeLessThanOrEqual(4);
    // BOB had local code first: it goes, and so does its storage.
    const base = chain.at(chain.head()).account(BOB)!.storageUsage;
    settle(chain, submit(chain, BOB, BOB, [{ type: "DeployContract", code: FT }]));
    expect(chain.at(chain.head()).account(BOB)!.storageUsage).toBe(base + FT.length);
    const used = settle(chain, submit(chain, BOB, BOB, [useHash(KV_HASH)]));
    expect(outcomeOf(used).status).toEqual({ SuccessValue: "" });
    const f = P.fees;
    expect(BigInt(outcomeOf(used).receipts_outcome[0]!.outcome.gas_burnt)).toBe(
      f.actionReceiptCreation.execution + f.useGlobalContractBase.execution + f.useGlobalContractPerIdentifierByte.execution * 32n,
    );
    const view = chain.at(chain.head()).account(BOB)!;
    expect(view.storageUsage).toBe(base + 32);
    expect(view.codeHash).toBe("11111111111111111111111111111111");
    expect(view.globalContractHash).toBe(base58Encode(KV_HASH));
    expect(view.globalContractAccountId).toBeUndefined();
    expect(Buffer.from(chain.at(chain.head()).code(BOB)!).equals(KV)).toBe(true);

    const set = settle(chain, submit(chain, BOB, BOB, [call("set", { key: "k", value: "v" })]));
    expect(outcomeOf(set).status).toEqual({ SuccessValue: "" });
    const got = chain.at(chain.head()).callFunction(BOB, "get", Buffer.from(JSON.stringify({ key: "k" })));
    expect(got.ok && Buffer.from(got.result).toString()).toBe('"v"');
    // A local deploy replaces the global contract; the 32 bytes are no longer counted.
    const storageBefore = chain.at(chain.head()).account(BOB)!.storageUsage;
    settle(chain, submit(chain, BOB, BOB, [{ type: "DeployContract", code: FT }]));
    const local = chain.at(chain.head()).account(BOB)!;
    expect(local.storageUsage).toBe(storageBefore - 32 + FT.length);
    expect(local.globalContractHash).toBeUndefined();
    expect(local.codeHash).toBe(base58Encode(sha256(FT)));
  });

  it("by account id: a redeploy by the owner changes the code every user runs", async () => {
    const chain = await openChain();
    const byAlice: GlobalContractKeyId = { kind: "AccountId", accountId: ALICE };
    settle(chain, submit(chain, ALICE, ALICE, [deploy(FT, "AccountId")]));
    distribute(chain, byAlice);
    const base = chain.at(chain.head()).account(CAROL)!.storageUsage;
    expect(outcomeOf(settle(chain, submit(chain, CAROL, CAROL, [useAccount(ALICE)]))).status).toEqual({ SuccessValue: "" });
    const view = chain.at(chain.head()).account(CAROL)!;
    expect(view.storageUsage).toBe(base + ALICE.length);
    expect(view.globalContractAccountId).toBe(ALICE);
    expect(Buffer.from(chain.at(chain.head()).code(CAROL)!).equals(FT)).toBe(true);
    settle(chain, submit(chain, ALICE, ALICE, [deploy(KV, "AccountId")]));
    distribute(chain, byAlice);
    for (let i = 0; i < 4; i++) chain.produceBlock();
    expect(Buffer.from(chain.at(chain.head()).code(CAROL)!).equals(KV)).toBe(true);
    expect(outcomeOf(settle(chain, submit(chain, CAROL, CAROL, [call("set", { key: "a", value: "b" })]))).status).toEqual({ SuccessValue: "" });
    const got = chain.at(chain.head()).callFunction(CAROL, "get", Buffer.from(JSON.stringify({ key: "a" })));
    expect(got.ok && Buffer.from(got.result).toString()).toBe('"b"');
    // ROOT never used it: no global fields.
    expect(chain.at(chain.head()).account(ROOT)!.globalContractAccountId).toBeUndefined();
    expect(balanceOf(chain, CAROL)).toBeGreaterThan(0n);
  });
});

describe("DeleteAccount of an account using a global contract (FixDeleteAccountGlobalContractStorageUsage, protocol 85)", () => {
  it("leaves the 32 bytes of the contract's code hash out of the 10,000-byte limit", async () => {
    const chain = await openChain();
    settle(chain, submit(chain, ALICE, ALICE, [deploy(KV, "CodeHash")]));
    distribute(chain, byHash);
    const id = `big.${ALICE}`;
    const key = (await import("../../../src/chain/genesis/devKey.js")).devKeyPair(id);
    const addKey: Action = { type: "AddKey", publicKey: key.publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } };
    settle(chain, submit(chain, ALICE, id, [{ type: "CreateAccount" }, { type: "Transfer", deposit: 10n * NEAR }, addKey, useHash(KV_HASH)]));
    const usage = () => chain.at(chain.head()).account(id)!.storageUsage;
    const set = (k: string, length: number) =>
      expect(outcomeOf(settle(chain, submit(chain, id, id, [call("set", { key: k, value: "x".repeat(length) })], { key }))).status).toEqual({
        SuccessValue: "",
      });
    // A record costs its key, its value and 40 bytes: measure the rest once, then fill the
    // state up to 10,000 bytes plus the 32 of the code hash, plus one.
    const before = usage();
    set("a", 10);
    const overhead = usage() - before - 10;
    const target = 10_000 + 32 + 1;
    const length = target - usage() - overhead;
    set("b", length);
    expect(usage()).toBe(target);
    const deleteAccount: Action = { type: "DeleteAccount", beneficiaryId: BOB };
    expect(outcomeOf(settle(chain, submit(chain, id, id, [deleteAccount], { key }))).status).toEqual(
      failureOf(0, { DeleteAccountWithLargeState: { account_id: id } }),
    );
    // One byte less: 10,000 bytes without the identifier (nearcore before protocol 85 counted
    // 10,032 and refused).
    set("b", length - 1);
    expect(usage()).toBe(target - 1);
    expect(outcomeOf(settle(chain, submit(chain, id, id, [deleteAccount], { key }))).status).toEqual({ SuccessValue: "" });
    expect(chain.at(chain.head()).account(id)).toBeUndefined();
  });
});
