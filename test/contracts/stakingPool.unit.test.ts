import { describe, expect, it } from "vitest";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import { MockedBlockchain, contractWasm } from "./support/MockedBlockchain.js";

const POOL = "pool.test.near";
const NEAR = 10n ** 24n;
const key = devKeyPair(POOL);
const keyBorsh = Uint8Array.of(0, ...key.publicKey.data);

function deployed() {
  const pool = new MockedBlockchain(contractWasm("staking-pool"), POOL);
  pool.call(
    "new",
    {
      owner_id: "test.near",
      stake_public_key: key.publicKeyString,
      reward_fee_fraction: { numerator: 10, denominator: 100 },
    },
    { balance: 100n * NEAR, epochHeight: 1n },
  );
  return pool;
}

describe("staking-pool contract (real VM, one-account harness)", () => {
  it("initialises with the owner, key and fee, and rejects bad input", () => {
    const pool = deployed();
    expect(pool.view("get_owner_id")).toBe("test.near");
    expect(pool.view("get_staking_key")).toBe(key.publicKeyString);
    expect(pool.view("get_reward_fee_fraction")).toEqual({ numerator: 10, denominator: 100 });
    expect(pool.view("get_total_staked_balance")).toBe("0");
    const fresh = () => new MockedBlockchain(contractWasm("staking-pool"), POOL);
    const bad = (args: object) => () =>
      fresh().call("new", {
        owner_id: "o.near",
        stake_public_key: key.publicKeyString,
        reward_fee_fraction: { numerator: 1, denominator: 10 },
        ...args,
      });
    expect(bad({ reward_fee_fraction: { numerator: 2, denominator: 1 } })).toThrow(
      "The reward fee must be less or equal to 1",
    );
    expect(bad({ reward_fee_fraction: { numerator: 0, denominator: 0 } })).toThrow(
      "Denominator must be a positive number",
    );
    expect(bad({ stake_public_key: "ed25519:0OIl" })).toThrow("Invalid staking public key");
    expect(() =>
      fresh().call(
        "new",
        {
          owner_id: "o.near",
          stake_public_key: key.publicKeyString,
          reward_fee_fraction: { numerator: 1, denominator: 10 },
        },
        { locked: 1n },
      ),
    ).toThrow("The staking pool shouldn't be staking at the initialization");
  });

  it("deposit_and_stake buys shares, stakes the pool total with its key and checks it in on_stake_action", () => {
    const pool = deployed();
    const r = pool.call(
      "deposit_and_stake",
      {},
      { predecessor: "alice.test.near", deposit: 50n * NEAR, balance: 100n * NEAR, epochHeight: 1n },
    );
    expect(r.logs).toEqual([
      `@alice.test.near deposited ${50n * NEAR}. New unstaked balance is ${50n * NEAR}`,
      `@alice.test.near staking ${50n * NEAR}. Received ${50n * NEAR} new staking shares. Total 0 unstaked balance and ${50n * NEAR} staking shares`,
      `Contract total staked balance is ${50n * NEAR}. Total number of shares ${50n * NEAR}`,
    ]);
    expect(r.promises).toEqual([
      { receiver: POOL, after: [], actions: [{ kind: "stake", amount: 50n * NEAR, publicKey: keyBorsh }] },
      {
        receiver: POOL,
        after: [0],
        actions: [
          { kind: "function_call", method: "on_stake_action", args: "{}", amount: 0n, gas: 20_000_000_000_000n },
        ],
      },
    ]);
    expect(pool.view("get_account", { account_id: "alice.test.near" })).toEqual({
      account_id: "alice.test.near",
      unstaked_balance: "0",
      staked_balance: (50n * NEAR).toString(),
      can_withdraw: true,
    });
    expect(pool.view("get_total_staked_balance")).toBe((50n * NEAR).toString());
    // A failed Stake action with stake locked unstakes everything.
    const cb = pool.call("on_stake_action", {}, { predecessor: POOL, promiseResults: [null], locked: 50n * NEAR });
    expect(cb.promises).toEqual([
      { receiver: POOL, after: [], actions: [{ kind: "stake", amount: 0n, publicKey: keyBorsh }] },
    ]);
    expect(
      pool.call("on_stake_action", {}, { predecessor: POOL, promiseResults: [new Uint8Array()] }).promises,
    ).toEqual([]);
    expect(() => pool.call("on_stake_action", {}, { predecessor: "alice.test.near", promiseResults: [null] })).toThrow(
      "Can be called only as a callback",
    );
  });

  it("shares an epoch's reward (balance growth) with the owner's fee, then unstakes with a 4-epoch delay", () => {
    const pool = deployed();
    pool.call(
      "deposit_and_stake",
      {},
      { predecessor: "alice.test.near", deposit: 90n * NEAR, balance: 100n * NEAR, epochHeight: 1n },
    );
    // Epoch 2: the pool holds 100 liquid + 100 locked (90 staked + 10 reward).
    const ping = pool.call("ping", {}, { balance: 100n * NEAR, locked: 100n * NEAR, epochHeight: 2n });
    const feeShares = (1n * NEAR * 90n * NEAR) / (99n * NEAR); // 10% of 10 NEAR, bought at 99/90 per share (after the delegators' 9)
    expect(ping.logs).toEqual([
      `Epoch 2: Contract received total rewards of ${10n * NEAR} tokens. New total staked balance is ${100n * NEAR}. Total number of shares ${90n * NEAR + feeShares}`,
      `Total rewards fee is ${feeShares} stake shares.`,
    ]);
    expect(ping.promises[0]!.actions[0]).toEqual({ kind: "stake", amount: 100n * NEAR, publicKey: keyBorsh });
    const staked = (shares: bigint) => (100n * NEAR * shares) / (90n * NEAR + feeShares);
    expect(pool.view("get_account_staked_balance", { account_id: "alice.test.near" })).toBe(
      staked(90n * NEAR).toString(),
    );
    expect(pool.view("get_account_staked_balance", { account_id: "test.near" })).toBe(staked(feeShares).toString());

    pool.call(
      "unstake",
      { amount: (10n * NEAR).toString() },
      { predecessor: "alice.test.near", balance: 100n * NEAR, locked: 100n * NEAR, epochHeight: 2n },
    );
    expect(pool.view("get_account_unstaked_balance", { account_id: "alice.test.near" })).toBe((10n * NEAR).toString());
    expect(pool.view("is_account_unstaked_balance_available", { account_id: "alice.test.near" })).toBe(false);
    expect(() =>
      pool.call(
        "withdraw",
        { amount: "1" },
        { predecessor: "alice.test.near", balance: 110n * NEAR, locked: 90n * NEAR, epochHeight: 5n },
      ),
    ).toThrow("The unstaked balance is not yet available due to unstaking delay");
    const w = pool.call(
      "withdraw_all",
      {},
      { predecessor: "alice.test.near", balance: 110n * NEAR, locked: 90n * NEAR, epochHeight: 6n },
    );
    expect(w.logs.at(-1)).toBe(`@alice.test.near withdrawing ${10n * NEAR}. New unstaked balance is 0`);
    expect(w.promises[0]).toEqual({
      receiver: "alice.test.near",
      after: [],
      actions: [{ kind: "transfer", amount: 10n * NEAR }],
    });
    expect(() =>
      pool.call("unstake", { amount: (1000n * NEAR).toString() }, { predecessor: "alice.test.near", epochHeight: 6n }),
    ).toThrow("Not enough staked balance to unstake");
    expect(() => pool.call("stake", { amount: "0" }, { predecessor: "alice.test.near", epochHeight: 6n })).toThrow(
      "Staking amount should be positive",
    );
    expect(() => pool.call("withdraw", { amount: "5" }, { predecessor: "bob.test.near", epochHeight: 6n })).toThrow(
      "Not enough unstaked balance to withdraw",
    );
  });

  it("deposit then stake and unstake_all", () => {
    const pool = deployed();
    pool.call("deposit", {}, { predecessor: "bob.test.near", deposit: 5n * NEAR, epochHeight: 1n });
    expect(pool.view("get_account_total_balance", { account_id: "bob.test.near" })).toBe((5n * NEAR).toString());
    pool.call("stake", { amount: (3n * NEAR).toString() }, { predecessor: "bob.test.near", epochHeight: 1n });
    expect(pool.view("get_account", { account_id: "bob.test.near" })).toMatchObject({
      unstaked_balance: (2n * NEAR).toString(),
      staked_balance: (3n * NEAR).toString(),
    });
    pool.call("unstake_all", {}, { predecessor: "bob.test.near", epochHeight: 1n });
    expect(pool.view("get_account", { account_id: "bob.test.near" })).toEqual({
      account_id: "bob.test.near",
      unstaked_balance: (5n * NEAR).toString(),
      staked_balance: "0",
      can_withdraw: false,
    });
    expect(pool.view("get_total_staked_balance")).toBe("0");
  });

  it("refuses an epoch whose total balance shrank", () => {
    const pool = deployed();
    expect(() => pool.call("ping", {}, { balance: 99n * NEAR, epochHeight: 2n })).toThrow(
      "The new total balance should not be less than the old total balance",
    );
    expect(pool.call("ping", {}, { balance: 100n * NEAR, epochHeight: 2n }).logs).toEqual([]);
  });

  it("stake_all, the not-paused flag, and core's init/uninit messages", () => {
    const pool = deployed();
    pool.call("deposit", {}, { predecessor: "carol.test.near", deposit: 7n * NEAR, epochHeight: 1n });
    pool.call("stake_all", {}, { predecessor: "carol.test.near", epochHeight: 1n });
    expect(pool.view("get_account_staked_balance", { account_id: "carol.test.near" })).toBe((7n * NEAR).toString());
    expect(pool.view("is_staking_paused")).toBe(false);
    expect(() =>
      pool.call("new", {
        owner_id: "x.near",
        stake_public_key: key.publicKeyString,
        reward_fee_fraction: { numerator: 1, denominator: 2 },
      }),
    ).toThrow("Already initialized");
    expect(() => new MockedBlockchain(contractWasm("staking-pool"), POOL).call("get_owner_id")).toThrow(
      "Staking contract should be initialized before usage",
    );
  });
});
