import { Account, JsonRpcProvider, KeyPairSigner, type KeyPairString } from "near-api-js-7";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FT_ACCOUNT,
  FT_INIT,
  KV_ACCOUNT,
  NFT_ACCOUNT,
  POOL_ACCOUNT,
  RELAY_ACCOUNT,
} from "../../src/chain/genesis/devGenesis.js";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import type { Service } from "../../src/server/startService.js";
import { startTestService } from "../server/harness.js";

// near-api-js 7 (the current major, one package again) signs and sends the calls over HTTP;
// the contracts' results and logs come back through send_tx / tx, and views through query, as
// a NEAR client sees them. test/contracts/chain.test.ts checks the same flows on the chain
// itself, in more detail.
let service: Service;
beforeAll(async () => {
  service = await startTestService();
  for (let i = 0; i < 3; i++) service.chain.produceBlock();
});
afterAll(() => service.close());

const NEAR = 10n ** 24n;
const TGAS = 10n ** 12n;
const ALICE = "alice.test.near";
const BOB = "bob.test.near";
const provider = () => new JsonRpcProvider({ url: service.rpcUrl });
const account = (accountId: string) =>
  new Account(accountId, provider(), KeyPairSigner.fromSecretKey(devKeyPair(accountId).secretKeyString as KeyPairString));
const view = (contractId: string, method: string, args: Record<string, unknown> = {}) => provider().callFunction({ contractId, method, args });
const nep = (standard: string, event: string, data: unknown[]) =>
  `EVENT_JSON:${JSON.stringify({ standard, version: "1.0.0", event, data })}`;

type Outcome = Awaited<ReturnType<Account["callFunctionRaw"]>>;
const logsOf = (o: Outcome, executor: string) =>
  o.receipts_outcome.filter((r) => r.outcome.executor_id === executor).flatMap((r) => r.outcome.logs);
const returned = (o: Outcome): unknown =>
  JSON.parse(Buffer.from((o.status as { SuccessValue: string }).SuccessValue, "base64").toString());

describe("fixture contracts over HTTP with near-api-js 7", () => {
  it("ft_transfer_call to a receiver on another shard: the callback refunds the unused amount", async () => {
    expect(service.chain.shardOf(RELAY_ACCOUNT)).not.toBe(service.chain.shardOf(FT_ACCOUNT));
    const root = account("test.near");
    await root.callFunction({
      contractId: FT_ACCOUNT,
      methodName: "storage_deposit",
      args: { account_id: RELAY_ACCOUNT },
      deposit: 1_250_000_000_000_000_000_000n,
      waitUntil: "FINAL",
    });
    const outcome = await root.callFunctionRaw({
      contractId: FT_ACCOUNT,
      methodName: "ft_transfer_call",
      args: { receiver_id: RELAY_ACCOUNT, amount: "1000", msg: "keep 250" },
      deposit: 1n,
      gas: 300n * TGAS,
      waitUntil: "FINAL",
    });
    expect(returned(outcome)).toBe("250");
    // The transfer, then (in ft_resolve_transfer, after the relay answered) the refund of the 750 it did not use.
    expect(logsOf(outcome, FT_ACCOUNT)).toEqual([
      nep("nep141", "ft_transfer", [{ old_owner_id: "test.near", new_owner_id: RELAY_ACCOUNT, amount: "1000" }]),
      nep("nep141", "ft_transfer", [{ old_owner_id: RELAY_ACCOUNT, new_owner_id: "test.near", amount: "750", memo: "refund" }]),
    ]);
    expect(await view(FT_ACCOUNT, "ft_balance_of", { account_id: RELAY_ACCOUNT })).toBe("250");
    expect(await view(FT_ACCOUNT, "ft_balance_of", { account_id: "test.near" })).toBe((FT_INIT.totalSupply - 250n).toString());
  });

  it("nft_mint answers the token and logs the NEP-297 event; nft_transfer moves it with its event", async () => {
    const outcome = await account("test.near").callFunctionRaw({
      contractId: NFT_ACCOUNT,
      methodName: "nft_mint",
      args: { token_id: "http-1", token_owner_id: BOB, token_metadata: { title: "Over HTTP" } },
      deposit: 10n ** 23n,
      waitUntil: "FINAL",
    });
    expect(returned(outcome)).toMatchObject({ token_id: "http-1", owner_id: BOB, metadata: { title: "Over HTTP" } });
    expect(outcome.receipts_outcome[0]!.outcome.logs).toEqual([nep("nep171", "nft_mint", [{ owner_id: BOB, token_ids: ["http-1"] }])]);

    const moved = await account(BOB).callFunctionRaw({
      contractId: NFT_ACCOUNT,
      methodName: "nft_transfer",
      args: { receiver_id: ALICE, token_id: "http-1" },
      deposit: 1n,
      waitUntil: "FINAL",
    });
    expect(logsOf(moved, NFT_ACCOUNT)).toEqual([
      nep("nep171", "nft_transfer", [{ old_owner_id: BOB, new_owner_id: ALICE, token_ids: ["http-1"] }]),
    ]);
    expect(await view(NFT_ACCOUNT, "nft_token", { token_id: "http-1" })).toMatchObject({ token_id: "http-1", owner_id: ALICE });
    expect(await view(NFT_ACCOUNT, "nft_supply_for_owner", { account_id: BOB })).toBe("0");
  });

  it("deposit_and_stake locks the pool's stake (view_account) and credits the delegator's staked balance", async () => {
    const lockedBefore = (await provider().viewAccount({ accountId: POOL_ACCOUNT, blockQuery: { finality: "final" } })).locked;
    const outcome = await account(ALICE).callFunctionRaw({
      contractId: POOL_ACCOUNT,
      methodName: "deposit_and_stake",
      args: {},
      deposit: 50n * NEAR,
      gas: 200n * TGAS,
      waitUntil: "FINAL",
    });
    expect(logsOf(outcome, POOL_ACCOUNT).slice(0, 2)).toEqual([
      `@${ALICE} deposited ${50n * NEAR}. New unstaked balance is ${50n * NEAR}`,
      `@${ALICE} staking ${50n * NEAR}. Received ${50n * NEAR} new staking shares. Total 0 unstaked balance and ${50n * NEAR} staking shares`,
    ]);
    const pool = await provider().viewAccount({ accountId: POOL_ACCOUNT, blockQuery: { finality: "final" } });
    expect(BigInt(pool.locked) - BigInt(lockedBefore)).toBe(50n * NEAR);
    expect(await view(POOL_ACCOUNT, "get_account_staked_balance", { account_id: ALICE })).toBe((50n * NEAR).toString());
    expect(await view(POOL_ACCOUNT, "get_account", { account_id: ALICE })).toEqual({
      account_id: ALICE,
      unstaked_balance: "0",
      staked_balance: (50n * NEAR).toString(),
      can_withdraw: true,
    });
  });

  it("relay: a promise_and join of two calls, and a failing branch its callback sees as Failed", async () => {
    const alice = account(ALICE);
    const join = await alice.callFunctionRaw({
      contractId: RELAY_ACCOUNT,
      methodName: "join",
      args: {
        a: { receiver_id: KV_ACCOUNT, method_name: "get", args: { key: "STATE" } },
        b: { receiver_id: RELAY_ACCOUNT, method_name: "echo", args: { n: 1 } },
      },
      gas: 100n * TGAS,
      waitUntil: "FINAL",
    });
    expect(returned(join)).toEqual([
      { status: "Successful", value: '"shardkit kv fixture"' },
      { status: "Successful", value: '{"n":1}' },
    ]);
    expect(logsOf(join, RELAY_ACCOUNT)).toContain("on_join sees 2 result(s)");

    const failing = await alice.callFunctionRaw({
      contractId: RELAY_ACCOUNT,
      methodName: "join_with_failure",
      args: { receiver_id: KV_ACCOUNT, method_name: "get", args: { key: "nope" } },
      gas: 100n * TGAS,
      waitUntil: "FINAL",
    });
    // The transaction succeeds: the callback ran with one result Failed, and said so.
    expect(returned(failing)).toEqual([{ status: "Successful", value: "null" }, { status: "Failed" }]);
    const failed = failing.receipts_outcome.filter((r) => "Failure" in (r.outcome.status as object));
    expect(failed).toHaveLength(1);
    expect(JSON.stringify(failed[0]!.outcome.status)).toContain("Smart contract panicked: relay: this branch fails on purpose");
  });

  it("kv: storage usage in view_account follows each write exactly", async () => {
    const usage = async () => (await provider().viewAccount({ accountId: KV_ACCOUNT, blockQuery: { finality: "final" } })).storage_usage;
    const before = await usage();
    const set = (key: string, value: string) =>
      account(ALICE).callFunctionRaw({ contractId: KV_ACCOUNT, methodName: "set", args: { key, value }, waitUntil: "FINAL" });
    expect(logsOf(await set("z:1", "one"), KV_ACCOUNT)).toEqual(["set z:1"]);
    await set("z:2", "two");
    expect(await view(KV_ACCOUNT, "list", { prefix: "z:" })).toEqual([
      { key: "z:1", value: "one" },
      { key: "z:2", value: "two" },
    ]);
    // Each entry: 3 + 3 bytes and 40 per record; the index bucket "\0z": 2 + 2 × (2 + 3) bytes and 40.
    expect(await usage()).toBe(before + 2 * 46 + 52);
  });
});
