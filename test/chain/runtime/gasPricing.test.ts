import { describe, expect, it } from "vitest";
import { gasBurnPrice, gasPurchasePrice, gasRefund, receiptGasTokensBurnt } from "../../../src/chain/runtime/gasPricing.js";
import { NEARCORE_RUNTIME_PARAMETERS as P } from "../../../src/chain/runtime/parameters.js";

const TGAS = 10n ** 12n;
const NEAR = 10n ** 24n;
const MILLINEAR = NEAR / 1000n;

describe("protocol 85 parameters (nearcore config-store snapshot 85, commit 05668890)", () => {
  it("has NEP-642's create-account fees, purchase price floor and account charge", () => {
    expect(P.fees.createAccount).toEqual({ sendSir: 500_000_000_000n, sendNotSir: 500_000_000_000n, execution: 7_200_000_000_000n });
    expect(P.fees.deterministicStateInitBase).toEqual({ sendSir: 500_000_000_000n, sendNotSir: 500_000_000_000n, execution: 7_430_000_000_000n });
    expect(P.minGasPurchasePrice).toBe(1_000_000_000n);
    expect(P.accountCreationCharge).toBe(7n * MILLINEAR);
    // nearcore keeps min_gas_purchase_price × create_account execution ≥ account_creation_charge,
    // so the charge always fits in the surplus of the create-account gas alone.
    expect(P.minGasPurchasePrice * P.fees.createAccount.execution >= P.accountCreationCharge).toBe(true);
  });
});

describe("gas prices", () => {
  it.each([
    // [block gas price, purchase price, burn price]
    [100_000_000n, 1_000_000_000n, 100_000_000n], // mainnet minimum: bought at the floor, burnt at the block price
    [1_000_000_000n, 1_000_000_000n, 1_000_000_000n],
    [10_000_000_000n, 10_000_000_000n, 10_000_000_000n], // above the floor: bought and burnt at the block price
  ])("block price %s: bought at %s, burnt at %s", (block, purchase, burn) => {
    expect(gasPurchasePrice(P, block)).toBe(purchase);
    expect(gasBurnPrice(purchase, block)).toBe(burn);
  });

  it("never burns above the receipt's purchase price when the block price rose", () => {
    expect(gasBurnPrice(1_000_000_000n, 3_000_000_000n)).toBe(1_000_000_000n);
  });
});

describe("gas refund (NEP-642)", () => {
  it("refunds the unused gas at the purchase price and the price surplus on the burnt gas", () => {
    const r = gasRefund(P, { purchasePrice: 1_000_000_000n, burnPrice: 100_000_000n, unusedGas: 5n * TGAS, gasBurnt: 2n * TGAS, createdAccount: false });
    expect(r).toEqual({ unusedGasAmount: 5n * MILLINEAR, priceSurplus: 18n * MILLINEAR / 10n, createAccountCharge: 0n, amount: 68n * MILLINEAR / 10n });
  });

  it("matches NEP-642's worked example: CreateAccount + FunctionCall, 57.2 Tgas burnt of 100 Tgas at gas price 10^8", () => {
    const r = gasRefund(P, {
      purchasePrice: 1_000_000_000n,
      burnPrice: 100_000_000n,
      unusedGas: 428n * TGAS / 10n,
      gasBurnt: 572n * TGAS / 10n,
      createdAccount: true,
    });
    // charge = 0.007 − 7.2 Tgas × 10^8 = 0.00628 NEAR; refund = (57.2 Tgas × 9×10^8 − 0.00628) + 42.8 Tgas × 10^9.
    expect(r.createAccountCharge).toBe(628n * NEAR / 100_000n);
    expect(r.amount - r.unusedGasAmount).toBe(452n * NEAR / 10_000n);
    expect(r.unusedGasAmount).toBe(428n * NEAR / 10_000n);
    expect(receiptGasTokensBurnt(100_000_000n, 572n * TGAS / 10n, r)).toBe(572n * TGAS / 10n * 100_000_000n + 628n * NEAR / 100_000n);
  });

  it("charges nothing when the gas burnt for creating the account already cost 0.007 NEAR", () => {
    // Block price 10^10 (0.01 NEAR per Tgas): no surplus, and 7.2 Tgas burn 0.072 NEAR.
    const r = gasRefund(P, { purchasePrice: 10n ** 10n, burnPrice: 10n ** 10n, unusedGas: 0n, gasBurnt: 8n * TGAS, createdAccount: true });
    expect(r).toEqual({ unusedGasAmount: 0n, priceSurplus: 0n, createAccountCharge: 0n, amount: 0n });
  });

  it("charges the rest of 0.007 NEAR beyond the create-account gas at the burn price", () => {
    // Burn price 9.5 × 10^8: 7.2 Tgas burn 0.00684 NEAR, 0.00016 NEAR is left to charge.
    const r = gasRefund(P, { purchasePrice: 10n ** 9n, burnPrice: 950_000_000n, unusedGas: 0n, gasBurnt: 8n * TGAS, createdAccount: true });
    expect(r.createAccountCharge).toBe(16n * NEAR / 100_000n);
    expect(r.amount).toBe(r.priceSurplus - r.createAccountCharge);
  });

  it("never charges more than the price surplus", () => {
    const r = gasRefund(P, { purchasePrice: 10n ** 9n, burnPrice: 10n ** 8n, unusedGas: 3n * TGAS, gasBurnt: TGAS, createdAccount: true });
    expect(r.createAccountCharge).toBe(r.priceSurplus);
    expect(r.amount).toBe(r.unusedGasAmount);
  });
});
