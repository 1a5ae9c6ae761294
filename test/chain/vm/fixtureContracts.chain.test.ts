import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Chain } from "../../../src/chain/node.js";
import { ALICE, BOB, CAROL, NEAR, openChain, outcomeOf, settle, submit, sumOfBalances } from "../runtime/helpers.js";
import { call, deploy, TGAS } from "./deploy.js";

/*
 * The repository's own AssemblyScript fixture contracts (contracts/build, built by
 * `npm run build:contracts`) running on the VM over a real chain: an FT on one shard, the
 * relay (an FT receiver and cross-contract caller) on another.
 */

const wasm = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`../../../contracts/build/${name}.wasm`, import.meta.url)));
const json = (v: unknown): string => JSON.stringify(v);
const text = (b: Uint8Array): string => new TextDecoder().decode(b);

function view(chain: Chain, account: string, method: string, args: unknown = {}): unknown {
  const out = chain.at(chain.head()).callFunction(account, method, new TextEncoder().encode(json(args)));
  if (!out.ok) throw new Error(out.message);
  return JSON.parse(text(out.result));
}

function exec(chain: Chain, signer: string, receiver: string, method: string, args: unknown, deposit = 0n, gas = 100n * TGAS) {
  return outcomeOf(settle(chain, submit(chain, signer, receiver, [call(method, json(args), gas, deposit)])));
}

async function ftAndRelay(): Promise<Chain> {
  const chain = await openChain();
  deploy(chain, ALICE, wasm("ft"));
  deploy(chain, BOB, wasm("relay"));
  const init = exec(chain, ALICE, ALICE, "new", {
    owner_id: ALICE,
    total_supply: "1000",
    metadata: { spec: "ft-1.0.0", name: "Test", symbol: "TST", decimals: 0 },
  });
  expect(init.status).toEqual({ SuccessValue: "" });
  return chain;
}

describe("fixture contracts on the VM", () => {
  it("ft: init, storage bounds exact (1.25e21), registration and a plain transfer with its event", async () => {
    const chain = await ftAndRelay();
    expect(view(chain, ALICE, "storage_balance_bounds")).toEqual({ min: "1250000000000000000000", max: "1250000000000000000000" });
    expect(view(chain, ALICE, "ft_balance_of", { account_id: ALICE })).toBe("1000");
    const reg = exec(chain, CAROL, ALICE, "storage_deposit", {}, 2n * NEAR);
    expect(reg.status).toMatchObject({ SuccessValue: expect.any(String) });
    const t = exec(chain, ALICE, ALICE, "ft_transfer", { receiver_id: CAROL, amount: "25" }, 1n);
    expect(t.status).toEqual({ SuccessValue: "" });
    expect(t.receipts_outcome[0]!.outcome.logs).toEqual([
      `EVENT_JSON:{"standard":"nep141","version":"1.0.0","event":"ft_transfer","data":[{"old_owner_id":"${ALICE}","new_owner_id":"${CAROL}","amount":"25"}]}`,
    ]);
    expect(view(chain, ALICE, "ft_balance_of", { account_id: CAROL })).toBe("25");
    const noDeposit = exec(chain, ALICE, ALICE, "ft_transfer", { receiver_id: CAROL, amount: "1" });
    expect(noDeposit.status).toEqual({
      Failure: { ActionError: { index: 0, kind: { FunctionCallError: { ExecutionError: "Smart contract panicked: Requires attached deposit of exactly 1 yoctoNEAR" } } } },
    });
  });

  it("ft_transfer_call across shards: the receiver keeps part, the callback refunds the rest", async () => {
    const chain = await ftAndRelay();
    expect(exec(chain, BOB, ALICE, "storage_deposit", {}, 2n * NEAR).status).toMatchObject({ SuccessValue: expect.any(String) });
    const o = exec(chain, ALICE, ALICE, "ft_transfer_call", { receiver_id: BOB, amount: "100", msg: "keep 30" }, 1n, 150n * TGAS);
    expect(o.status).toEqual({ SuccessValue: Buffer.from(json("30")).toString("base64") });
    const onTransfer = o.receipts_outcome.find((r) => r.outcome.executor_id === BOB)!;
    expect(onTransfer.outcome.logs).toEqual([`relay keeps 30 of 100 from ${ALICE} via ${ALICE}`]);
    expect(view(chain, ALICE, "ft_balance_of", { account_id: BOB })).toBe("30");
    expect(view(chain, ALICE, "ft_balance_of", { account_id: ALICE })).toBe("970");
    expect(sumOfBalances(chain)).toBe(BigInt(chain.head().view.header.total_supply));
  });

  it("relay: forward and join_with_failure report results and failures from another shard", async () => {
    const chain = await ftAndRelay();
    const fwd = exec(chain, CAROL, BOB, "forward", { receiver_id: ALICE, method_name: "ft_total_supply" });
    expect(JSON.parse(Buffer.from((fwd.status as { SuccessValue: string }).SuccessValue, "base64").toString())).toEqual({
      status: "Successful",
      value: '"1000"',
    });
    const joined = exec(chain, CAROL, BOB, "join_with_failure", { receiver_id: ALICE, method_name: "ft_balance_of", args: { account_id: ALICE } });
    expect(JSON.parse(Buffer.from((joined.status as { SuccessValue: string }).SuccessValue, "base64").toString())).toEqual([
      { status: "Successful", value: '"1000"' },
      { status: "Failed" },
    ]);
    const failing = joined.receipts_outcome.find((r) => "Failure" in (r.outcome.status as object))!;
    expect(failing.outcome.status).toEqual({
      Failure: { ActionError: { index: 0, kind: { FunctionCallError: { ExecutionError: "Smart contract panicked: relay: this branch fails on purpose" } } } },
    });
  });

  it("staking pool: deposit_and_stake locks the pool's stake through the Stake action and its callback", async () => {
    const chain = await openChain();
    deploy(chain, BOB, wasm("staking-pool"));
    const key = "ed25519:6E8sCci9badyRkXb3JoRpBj5p8C6Tw41ELDZoiihKEtp";
    const init = exec(chain, BOB, BOB, "new", { owner_id: BOB, stake_public_key: key, reward_fee_fraction: { numerator: 10, denominator: 100 } });
    expect(init.status).toEqual({ SuccessValue: "" });
    const locked0 = chain.at(chain.head()).account(BOB)!.locked;
    const o = exec(chain, CAROL, BOB, "deposit_and_stake", {}, 50n * NEAR, 200n * TGAS);
    expect(o.status).toEqual({ SuccessValue: "" });
    expect(o.receipts_outcome[0]!.outcome.logs[0]).toBe(`@${CAROL} deposited 50000000000000000000000000. New unstaked balance is 50000000000000000000000000`);
    expect(chain.at(chain.head()).account(BOB)!.locked).toBe(locked0 + 50n * NEAR);
    expect(view(chain, BOB, "get_account_staked_balance", { account_id: CAROL })).toBe((50n * NEAR).toString());
    expect(view(chain, BOB, "get_total_staked_balance")).toBe((50n * NEAR).toString());
  });
});
