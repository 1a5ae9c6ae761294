import { describe, expect, it } from "vitest";
import {
  FT_ACCOUNT,
  FT_INIT,
  KV_ACCOUNT,
  NFT_ACCOUNT,
  POOL_ACCOUNT,
  RELAY_ACCOUNT,
} from "../../src/chain/genesis/devGenesis.js";
import type { Chain } from "../../src/chain/node.js";
import {
  ALICE,
  BOB,
  NEAR,
  ROOT,
  balanceOf,
  openChain,
  outcomeOf,
  settle,
  submit,
  sumOfBalances,
} from "../chain/runtime/helpers.js";
import { TGAS, call } from "../chain/vm/deploy.js";

/** Real signed transactions on a real Chain (dev genesis with the fixture contracts). */

const MIN_STORAGE = 1_250_000_000_000_000_000_000n;
const b64 = (s: string) => Buffer.from(s).toString("base64");
const nep = (standard: string, event: string, data: unknown[]) =>
  `EVENT_JSON:${JSON.stringify({ standard, version: "1.0.0", event, data })}`;

type Outcome = ReturnType<typeof outcomeOf>;

function tx(
  chain: Chain,
  signer: string,
  receiver: string,
  method: string,
  args: unknown,
  deposit = 0n,
  gas = 100n * TGAS,
): Outcome {
  return outcomeOf(
    settle(chain, submit(chain, signer, receiver, [call(method, JSON.stringify(args), gas, deposit)]), "FINAL", 30),
  );
}

function ok(o: Outcome): Outcome {
  const failures = o.receipts_outcome.filter((r) => "Failure" in (r.outcome.status as object));
  if ("Failure" in (o.status as object) || failures.length > 0)
    throw new Error(`failed: ${JSON.stringify([o.status, failures.map((f) => f.outcome.status)])}`);
  return o;
}

function view<T = unknown>(chain: Chain, accountId: string, method: string, args: unknown = {}): T {
  const r = chain.at(chain.head()).callFunction(accountId, method, new TextEncoder().encode(JSON.stringify(args)));
  if (!r.ok) throw new Error(r.message);
  return JSON.parse(Buffer.from(r.result).toString()) as T;
}

const logsOf = (o: Outcome, executor: string) =>
  o.receipts_outcome.filter((r) => r.outcome.executor_id === executor).flatMap((r) => r.outcome.logs);
const ftBalance = (chain: Chain, id: string) =>
  BigInt(view<string>(chain, FT_ACCOUNT, "ft_balance_of", { account_id: id }));

describe("fixture contracts through signed transactions on a real chain", () => {
  it("ft: storage_deposit, ft_transfer and ft_transfer_call to a receiver on another shard with the unused amount refunded", async () => {
    const chain = await openChain();
    expect(chain.shardOf(FT_ACCOUNT)).not.toBe(chain.shardOf(RELAY_ACCOUNT));
    const supply = FT_INIT.totalSupply;

    // Registration refunds what exceeds the 1.25e21 minimum.
    const aliceBefore = balanceOf(chain, ALICE);
    const reg = ok(tx(chain, ALICE, FT_ACCOUNT, "storage_deposit", {}, NEAR / 10n));
    expect(reg.status).toEqual({
      SuccessValue: b64(JSON.stringify({ total: MIN_STORAGE.toString(), available: "0" })),
    });
    const gasCost = aliceBefore - balanceOf(chain, ALICE) - MIN_STORAGE;
    expect(gasCost).toBeGreaterThan(0n);
    expect(gasCost).toBeLessThan(NEAR / 100n); // the 0.1 NEAR minus the minimum came back
    ok(tx(chain, ROOT, FT_ACCOUNT, "storage_deposit", { account_id: RELAY_ACCOUNT }, MIN_STORAGE));

    const t = ok(tx(chain, ROOT, FT_ACCOUNT, "ft_transfer", { receiver_id: ALICE, amount: "1000", memo: "hi" }, 1n));
    expect(logsOf(t, FT_ACCOUNT)).toEqual([
      nep("nep141", "ft_transfer", [{ old_owner_id: ROOT, new_owner_id: ALICE, amount: "1000", memo: "hi" }]),
    ]);
    expect(ftBalance(chain, ALICE)).toBe(1000n);

    const call = tx(
      chain,
      ROOT,
      FT_ACCOUNT,
      "ft_transfer_call",
      { receiver_id: RELAY_ACCOUNT, amount: "100", msg: "keep 30" },
      1n,
      300n * TGAS,
    );
    expect(ok(call).status).toEqual({ SuccessValue: b64('"30"') });
    expect(logsOf(call, RELAY_ACCOUNT)).toEqual([`relay keeps 30 of 100 from ${ROOT} via ${FT_ACCOUNT}`]);
    expect(logsOf(call, FT_ACCOUNT)).toEqual([
      nep("nep141", "ft_transfer", [{ old_owner_id: ROOT, new_owner_id: RELAY_ACCOUNT, amount: "100" }]),
      nep("nep141", "ft_transfer", [{ old_owner_id: RELAY_ACCOUNT, new_owner_id: ROOT, amount: "70", memo: "refund" }]),
    ]);
    // The callback ran on ft's shard after the receiver's result crossed over from relay's shard.
    const onTransfer = call.receipts_outcome.find((r) => r.outcome.executor_id === RELAY_ACCOUNT)!;
    const resolve = call.receipts_outcome.find((r) => r.outcome.logs.some((l) => l.includes('"memo":"refund"')))!;
    expect(onTransfer.outcome.status).toEqual({ SuccessValue: b64('"70"') });
    expect(chain.blockByHash(resolve.block_hash)!.height).toBeGreaterThan(
      chain.blockByHash(onTransfer.block_hash)!.height,
    );
    expect(ftBalance(chain, RELAY_ACCOUNT)).toBe(30n);
    expect(ftBalance(chain, ROOT)).toBe(supply - 1000n - 30n);
    expect(BigInt(view<string>(chain, FT_ACCOUNT, "ft_total_supply"))).toBe(supply);

    // A receiver that panics: everything comes back.
    const refused = tx(
      chain,
      ROOT,
      FT_ACCOUNT,
      "ft_transfer_call",
      { receiver_id: RELAY_ACCOUNT, amount: "50", msg: "panic" },
      1n,
      300n * TGAS,
    );
    expect(refused.status).toEqual({ SuccessValue: b64('"0"') });
    const failed = refused.receipts_outcome.find((r) => r.outcome.executor_id === RELAY_ACCOUNT)!;
    expect(failed.outcome.status).toEqual({
      Failure: {
        ActionError: {
          index: 0,
          kind: {
            FunctionCallError: { ExecutionError: "Smart contract panicked: relay: ft_on_transfer refuses the tokens" },
          },
        },
      },
    });
    expect(ftBalance(chain, RELAY_ACCOUNT)).toBe(30n);
    expect(ftBalance(chain, ROOT)).toBe(supply - 1030n);

    // near-sdk's panics reach the outcome as ExecutionError.
    const noYocto = tx(chain, ALICE, FT_ACCOUNT, "ft_transfer", { receiver_id: BOB, amount: "1" });
    expect(noYocto.status).toEqual({
      Failure: {
        ActionError: {
          index: 0,
          kind: {
            FunctionCallError: {
              ExecutionError: "Smart contract panicked: Requires attached deposit of exactly 1 yoctoNEAR",
            },
          },
        },
      },
    });
    const unregistered = tx(chain, ALICE, FT_ACCOUNT, "ft_transfer", { receiver_id: BOB, amount: "1" }, 1n);
    expect(JSON.stringify(unregistered.status)).toContain(
      "Smart contract panicked: The account bob.test.near is not registered",
    );
    expect(sumOfBalances(chain)).toBe(BigInt(chain.head().view.header.total_supply));
  });

  it("relay: forward with a callback, a promise_and join, and a failing branch the callback sees as Failed", async () => {
    const chain = await openChain();
    const fwd = ok(
      tx(chain, ALICE, RELAY_ACCOUNT, "forward", {
        receiver_id: FT_ACCOUNT,
        method_name: "ft_balance_of",
        args: { account_id: ROOT },
      }),
    );
    expect(JSON.parse(Buffer.from((fwd.status as { SuccessValue: string }).SuccessValue, "base64").toString())).toEqual(
      {
        status: "Successful",
        value: JSON.stringify(FT_INIT.totalSupply.toString()),
      },
    );
    expect(logsOf(fwd, RELAY_ACCOUNT)).toEqual(["on_forward sees 1 result(s)"]);

    const join = ok(
      tx(chain, ALICE, RELAY_ACCOUNT, "join", {
        a: { receiver_id: KV_ACCOUNT, method_name: "get", args: { key: "STATE" } },
        b: { receiver_id: RELAY_ACCOUNT, method_name: "echo", args: { n: 1 } },
      }),
    );
    const report = (o: Outcome) =>
      JSON.parse(Buffer.from((o.status as { SuccessValue: string }).SuccessValue, "base64").toString()) as unknown;
    expect(report(join)).toEqual([
      { status: "Successful", value: '"shardkit kv fixture"' },
      { status: "Successful", value: '{"n":1}' },
    ]);
    const cb = join.receipts_outcome.find((r) => r.outcome.logs.includes("on_join sees 2 result(s)"))!;
    const cbView = chain.receipt(cb.id)!.receipt as { Action: { input_data_ids: string[] } };
    expect(cbView.Action.input_data_ids).toHaveLength(2);

    const fail = tx(chain, ALICE, RELAY_ACCOUNT, "join_with_failure", {
      receiver_id: KV_ACCOUNT,
      method_name: "get",
      args: { key: "nope" },
    });
    expect(report(fail)).toEqual([{ status: "Successful", value: "null" }, { status: "Failed" }]);
    expect(
      fail.receipts_outcome.some((r) =>
        JSON.stringify(r.outcome.status).includes("relay: this branch fails on purpose"),
      ),
    ).toBe(true);
  });

  it("nft: mint with a storage deposit and transfer, with NEP-297 events", async () => {
    const chain = await openChain();
    const mint = ok(
      tx(
        chain,
        ROOT,
        NFT_ACCOUNT,
        "nft_mint",
        { token_id: "t1", token_owner_id: ALICE, token_metadata: { title: "One" } },
        NEAR / 10n,
      ),
    );
    expect(logsOf(mint, NFT_ACCOUNT)).toEqual([nep("nep171", "nft_mint", [{ owner_id: ALICE, token_ids: ["t1"] }])]);
    const tr = ok(tx(chain, ALICE, NFT_ACCOUNT, "nft_transfer", { receiver_id: BOB, token_id: "t1" }, 1n));
    expect(logsOf(tr, NFT_ACCOUNT)).toEqual([
      nep("nep171", "nft_transfer", [{ old_owner_id: ALICE, new_owner_id: BOB, token_ids: ["t1"] }]),
    ]);
    expect(view(chain, NFT_ACCOUNT, "nft_token", { token_id: "t1" })).toMatchObject({
      token_id: "t1",
      owner_id: BOB,
      metadata: { title: "One" },
    });
    expect(view(chain, NFT_ACCOUNT, "nft_tokens_for_owner", { account_id: BOB })).toHaveLength(1);
    expect(view(chain, NFT_ACCOUNT, "nft_supply_for_owner", { account_id: ALICE })).toBe("0");
    const stolen = tx(chain, ALICE, NFT_ACCOUNT, "nft_transfer", { receiver_id: ALICE, token_id: "t1" }, 1n);
    expect(JSON.stringify(stolen.status)).toContain("Smart contract panicked: Approval extension is disabled");

    // transfer_call to the relay on another shard: it asks for the token back, then keeps it.
    expect(chain.shardOf(NFT_ACCOUNT) === chain.shardOf(BOB)).toBe(false);
    const back = ok(
      tx(
        chain,
        BOB,
        NFT_ACCOUNT,
        "nft_transfer_call",
        { receiver_id: RELAY_ACCOUNT, token_id: "t1", msg: "return" },
        1n,
        300n * TGAS,
      ),
    );
    expect(back.status).toEqual({ SuccessValue: b64("false") });
    expect(logsOf(back, NFT_ACCOUNT)).toEqual([
      nep("nep171", "nft_transfer", [{ old_owner_id: BOB, new_owner_id: RELAY_ACCOUNT, token_ids: ["t1"] }]),
      nep("nep171", "nft_transfer", [{ old_owner_id: RELAY_ACCOUNT, new_owner_id: BOB, token_ids: ["t1"] }]),
    ]);
    expect(view(chain, NFT_ACCOUNT, "nft_token", { token_id: "t1" })).toMatchObject({ owner_id: BOB });
    const kept = ok(
      tx(
        chain,
        BOB,
        NFT_ACCOUNT,
        "nft_transfer_call",
        { receiver_id: RELAY_ACCOUNT, token_id: "t1", msg: "" },
        1n,
        300n * TGAS,
      ),
    );
    expect(kept.status).toEqual({ SuccessValue: b64("true") });
    expect(logsOf(kept, RELAY_ACCOUNT)).toEqual([`relay keeps t1 from ${BOB} via ${NFT_ACCOUNT}`]);
    expect(view(chain, NFT_ACCOUNT, "nft_token", { token_id: "t1" })).toMatchObject({ owner_id: RELAY_ACCOUNT });
  });

  it("staking-pool: deposit_and_stake locks the pool's stake and credits the delegator", async () => {
    const chain = await openChain();
    const o = ok(tx(chain, ALICE, POOL_ACCOUNT, "deposit_and_stake", {}, 50n * NEAR, 200n * TGAS));
    expect(logsOf(o, POOL_ACCOUNT).slice(0, 2)).toEqual([
      `@${ALICE} deposited ${50n * NEAR}. New unstaked balance is ${50n * NEAR}`,
      `@${ALICE} staking ${50n * NEAR}. Received ${50n * NEAR} new staking shares. Total 0 unstaked balance and ${50n * NEAR} staking shares`,
    ]);
    expect(chain.at(chain.head()).account(POOL_ACCOUNT)!.locked).toBe(50n * NEAR);
    expect(view(chain, POOL_ACCOUNT, "get_account_staked_balance", { account_id: ALICE })).toBe(
      (50n * NEAR).toString(),
    );
    expect(view(chain, POOL_ACCOUNT, "get_total_staked_balance")).toBe((50n * NEAR).toString());
    expect(view(chain, POOL_ACCOUNT, "get_account", { account_id: ALICE })).toEqual({
      account_id: ALICE,
      unstaked_balance: "0",
      staked_balance: (50n * NEAR).toString(),
      can_withdraw: true,
    });

    ok(tx(chain, ALICE, POOL_ACCOUNT, "unstake", { amount: (20n * NEAR).toString() }, 0n, 200n * TGAS));
    expect(view(chain, POOL_ACCOUNT, "get_account_unstaked_balance", { account_id: ALICE })).toBe(
      (20n * NEAR).toString(),
    );
    expect(view(chain, POOL_ACCOUNT, "is_account_unstaked_balance_available", { account_id: ALICE })).toBe(false);
    const early = tx(chain, ALICE, POOL_ACCOUNT, "withdraw_all", {}, 0n, 200n * TGAS);
    expect(JSON.stringify(early.status)).toContain("The unstaked balance is not yet available due to unstaking delay");
  });

  it("kv: set, get, list and remove round trip, storage usage exact", async () => {
    const chain = await openChain();
    const usage0 = chain.at(chain.head()).account(KV_ACCOUNT)!.storageUsage;
    const set = ok(tx(chain, ALICE, KV_ACCOUNT, "set", { key: "z:1", value: "one" }));
    expect(logsOf(set, KV_ACCOUNT)).toEqual(["set z:1"]);
    ok(tx(chain, ALICE, KV_ACCOUNT, "set", { key: "z:2", value: "two" }));
    expect(view(chain, KV_ACCOUNT, "get", { key: "z:1" })).toBe("one");
    expect(view(chain, KV_ACCOUNT, "list", { prefix: "z:" })).toEqual([
      { key: "z:1", value: "one" },
      { key: "z:2", value: "two" },
    ]);
    // data: 2 × (3 + 3 + 40); index "\0z": 2 + 2 × (2 + 3) + 40
    expect(chain.at(chain.head()).account(KV_ACCOUNT)!.storageUsage).toBe(usage0 + 2 * 46 + 52);
    const rm = ok(tx(chain, ALICE, KV_ACCOUNT, "remove", { key: "z:1" }));
    expect(rm.status).toEqual({ SuccessValue: b64("true") });
    expect(view(chain, KV_ACCOUNT, "list", { prefix: "z:" })).toEqual([{ key: "z:2", value: "two" }]);
    expect(chain.at(chain.head()).account(KV_ACCOUNT)!.storageUsage).toBe(usage0 + 46 + 47);
  });
});

describe("staking-pool across epochs", () => {
  it("unstaked stake returns at the epoch boundary and is withdrawable 4 epochs after unstaking", async () => {
    const chain = await openChain({ epochLength: 5 });
    ok(tx(chain, ALICE, POOL_ACCOUNT, "deposit_and_stake", {}, 30n * NEAR, 200n * TGAS));
    ok(tx(chain, BOB, POOL_ACCOUNT, "deposit_and_stake", {}, 10n * NEAR, 200n * TGAS));
    // Bob's call may open a new epoch, whose rewards (the contract's share of burnt gas) the pool
    // stakes too: the locked balance always equals the pool's own total.
    const totalStaked = () => BigInt(view<string>(chain, POOL_ACCOUNT, "get_total_staked_balance"));
    const locked = () => chain.at(chain.head()).account(POOL_ACCOUNT)!.locked;
    expect(locked()).toBe(totalStaked());
    expect(locked()).toBeGreaterThanOrEqual(40n * NEAR);
    ok(tx(chain, ALICE, POOL_ACCOUNT, "unstake_all", {}, 0n, 200n * TGAS));
    const afterUnstake = totalStaked();
    expect(afterUnstake).toBeLessThan(11n * NEAR);
    // Lowering a stake is a proposal: the chain releases the difference at an epoch boundary.
    for (let i = 0; i < 12; i++) chain.produceBlock();
    expect(locked()).toBe(afterUnstake);
    expect(view(chain, POOL_ACCOUNT, "is_account_unstaked_balance_available", { account_id: ALICE })).toBe(false);
    for (let i = 0; i < 20; i++) chain.produceBlock();
    expect(view(chain, POOL_ACCOUNT, "is_account_unstaked_balance_available", { account_id: ALICE })).toBe(true);
    const before = balanceOf(chain, ALICE);
    const w = ok(tx(chain, ALICE, POOL_ACCOUNT, "withdraw_all", {}, 0n, 200n * TGAS));
    // The first call of a new epoch distributes "rewards": the contract's share of burnt gas.
    expect(
      logsOf(w, POOL_ACCOUNT).some((l) => /^Epoch \d+: Contract received total rewards of \d+ tokens\./.test(l)),
    ).toBe(true);
    const withdrawn = logsOf(w, POOL_ACCOUNT)
      .map((l) => /^@alice\.test\.near withdrawing (\d+)\. New unstaked balance is 0$/.exec(l)?.[1])
      .find((x) => x !== undefined);
    expect(BigInt(withdrawn!)).toBeGreaterThanOrEqual(30n * NEAR); // her stake plus her share of rewards
    const gained = balanceOf(chain, ALICE) - before;
    expect(gained).toBeGreaterThan(BigInt(withdrawn!) - NEAR / 100n); // minus the gas of the call
    expect(gained).toBeLessThan(BigInt(withdrawn!));
    expect(view(chain, POOL_ACCOUNT, "get_account_total_balance", { account_id: ALICE })).toBe("0");
    // Bob's shares now carry the rewards (and the owner took its 10% in shares).
    expect(
      BigInt(view<string>(chain, POOL_ACCOUNT, "get_account_staked_balance", { account_id: BOB })),
    ).toBeGreaterThan(10n * NEAR);
    expect(
      BigInt(view<string>(chain, POOL_ACCOUNT, "get_account_staked_balance", { account_id: ROOT })),
    ).toBeGreaterThan(0n);
    expect(sumOfBalances(chain)).toBe(BigInt(chain.head().view.header.total_supply));
  });
});
