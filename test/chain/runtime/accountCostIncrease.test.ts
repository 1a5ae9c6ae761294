import { describe, expect, it } from "vitest";
import type { Action } from "../../../src/chain/transaction/index.js";
import {
  ALICE,
  BOB,
  CREATE_ACCOUNT_CHARGE,
  GAS_PRICE,
  NEAR,
  balanceOf,
  keyOf,
  openChain,
  outcomeOf,
  priceSurplus,
  settle,
  submit,
  sumOfBalances,
} from "./helpers.js";

/*
 * NEP-642 (AccountCostIncrease, protocol 85) on the chain, at the dev chain's gas price 10^8:
 * receipt gas is bought at min_gas_purchase_price 10^9, burnt at 10^8, and the surplus comes
 * back in the gas refund less what an account creation should still cost.
 */

const fullKey = (label: string): Action => ({ type: "AddKey", publicKey: keyOf(label).publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } });

const RECEIPT = 108_059_500_000n;
const TRANSFER = 115_123_062_500n;
const FULL_KEY = 101_765_125_000n;

describe("account creation costs 0.007 NEAR (NEP-642)", () => {
  it("charges the creator account_creation_charge beyond the create-account gas, in tokens_burnt and not gas_burnt", async () => {
    const chain = await openChain();
    const id = `new.${ALICE}`;
    const a0 = balanceOf(chain, ALICE);
    const supply0 = BigInt(chain.head().view.header.total_supply);
    const s = settle(chain, submit(chain, ALICE, id, [{ type: "CreateAccount" }, { type: "Transfer", deposit: NEAR }, fullKey("new")]));
    const o = outcomeOf(s);
    expect(o.status).toEqual({ SuccessValue: "" });
    const send = RECEIPT + 500_000_000_000n + TRANSFER + FULL_KEY;
    const exec = RECEIPT + 7_200_000_000_000n + TRANSFER + FULL_KEY;
    expect(o.transaction_outcome.outcome).toMatchObject({ gas_burnt: Number(send), tokens_burnt: (send * GAS_PRICE).toString() });
    const [main, refund] = o.receipts_outcome;
    expect(main!.outcome).toMatchObject({
      gas_burnt: Number(exec),
      tokens_burnt: (exec * GAS_PRICE + CREATE_ACCOUNT_CHARGE).toString(),
      receipt_ids: [refund!.id],
    });
    expect(CREATE_ACCOUNT_CHARGE).toBe(6_280_000_000_000_000_000_000n); // 0.007 − 7.2 Tgas × 10^8
    expect(chain.receipt(refund!.id)).toMatchObject({
      predecessor_id: "system",
      receiver_id: ALICE,
      receipt: { Action: { signer_id: ALICE, gas_price: "0", actions: [{ Transfer: { deposit: (priceSurplus(exec) - CREATE_ACCOUNT_CHARGE).toString() } }] } },
    });
    expect(refund!.outcome).toMatchObject({ tokens_burnt: "0", status: { SuccessValue: "" } });
    // In all: the deposit, both sides' gas at the block's price, and the charge.
    const spent = NEAR + (send + exec) * GAS_PRICE + CREATE_ACCOUNT_CHARGE;
    expect(balanceOf(chain, ALICE)).toBe(a0 - spent);
    expect(balanceOf(chain, id)).toBe(NEAR);
    // The charge leaves the supply like burnt gas.
    const supply = BigInt(chain.head().view.header.total_supply);
    expect(supply).toBe(supply0 - (send + exec) * GAS_PRICE - CREATE_ACCOUNT_CHARGE);
    expect(sumOfBalances(chain)).toBe(supply);
    const receiptChunk = chain.blockByHash(main!.block_hash)!.view.chunks.find((c) => c.shard_id === chain.shardOf(id))!;
    expect(receiptChunk.balance_burnt).toBe((exec * GAS_PRICE + CREATE_ACCOUNT_CHARGE).toString());
  });

  it("charges nothing when the receipt fails: the whole price surplus comes back", async () => {
    const chain = await openChain();
    const id = `fail.${ALICE}`;
    const a0 = balanceOf(chain, ALICE);
    const o = outcomeOf(settle(chain, submit(chain, ALICE, id, [{ type: "CreateAccount" }, { type: "DeleteKey", publicKey: keyOf("none").publicKey }])));
    expect(o.status).toMatchObject({ Failure: { ActionError: { index: 1 } } });
    expect(chain.at(chain.head()).account(id)).toBeUndefined();
    const send = RECEIPT + 500_000_000_000n + 94_946_625_000n;
    // The failed receipt burns its gas up to the failing action; the rest is refunded.
    const exec = BigInt(o.receipts_outcome[0]!.outcome.gas_burnt);
    expect(exec).toBe(RECEIPT + 7_200_000_000_000n + 94_946_625_000n);
    expect(o.receipts_outcome[0]!.outcome.tokens_burnt).toBe((exec * GAS_PRICE).toString());
    expect(balanceOf(chain, ALICE)).toBe(a0 - (send + exec) * GAS_PRICE);
  });

  it("charges nothing when the receipt deletes the account it created", async () => {
    const chain = await openChain();
    const id = `gone.${ALICE}`;
    const o = outcomeOf(settle(chain, submit(chain, ALICE, id, [{ type: "CreateAccount" }, { type: "DeleteAccount", beneficiaryId: BOB }])));
    expect(o.status).toEqual({ SuccessValue: "" });
    const main = o.receipts_outcome[0]!;
    expect(main.outcome.tokens_burnt).toBe((BigInt(main.outcome.gas_burnt) * GAS_PRICE).toString());
  });

  it("charges nothing for a transfer to an account that exists", async () => {
    const chain = await openChain();
    const o = outcomeOf(settle(chain, submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: 1n }])));
    const main = o.receipts_outcome[0]!;
    expect(main.outcome.tokens_burnt).toBe((BigInt(main.outcome.gas_burnt) * GAS_PRICE).toString());
  });
});
