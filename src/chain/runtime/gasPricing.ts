import type { RuntimeParameters } from "./parameters.js";

/*
 * Gas prices and the gas refund of an action receipt, after NEP-642 (AccountCostIncrease,
 * protocol 85): nearcore config.rs `calculate_tx_cost` and lib.rs `apply_action_receipt` /
 * `refund_unspent_gas_and_deposits`. Every price decision of the runtime lives here.
 *
 * Gas attached to a receipt is bought at the purchase price, at least `min_gas_purchase_price`;
 * it is burnt at the burn price, never above the purchase price. What the signer overpaid on
 * the burnt gas comes back with the gas refund, less `account_creation_charge` when the receipt
 * created its receiver. The NEP-536 refund penalty is 0 at protocol 85 (gas_refund_penalty 0/100,
 * min_gas_refund_penalty 0), so it is not modelled.
 */

/** The price a transaction's receipt gas is bought at: max(block gas price, min_gas_purchase_price). */
export function gasPurchasePrice(p: Pick<RuntimeParameters, "minGasPurchasePrice">, blockGasPrice: bigint): bigint {
  return blockGasPrice > p.minGasPurchasePrice ? blockGasPrice : p.minGasPurchasePrice;
}

/** The price a receipt's gas is burnt at: min(its purchase price, the block's gas price). */
export function gasBurnPrice(purchasePrice: bigint, blockGasPrice: bigint): bigint {
  return purchasePrice < blockGasPrice ? purchasePrice : blockGasPrice;
}

/** What the signer gets back after an action receipt ran (nearcore `GasRefundResult` and its sum). */
export interface GasRefund {
  /** Gas bought but neither burnt nor handed on, at the purchase price. */
  readonly unusedGasAmount: bigint;
  /** (purchase − burn price) × gas burnt: overpaid on the gas that was burnt. */
  readonly priceSurplus: bigint;
  /** Taken out of the surplus and burnt because the receipt created an account. */
  readonly createAccountCharge: bigint;
  /** The amount of the gas refund receipt: unused + surplus − charge. */
  readonly amount: bigint;
}

export interface GasRefundInput {
  readonly purchasePrice: bigint;
  readonly burnPrice: bigint;
  /** Gas bought for the receipt that it neither burnt nor attached to new receipts. */
  readonly unusedGas: bigint;
  readonly gasBurnt: bigint;
  /** The receiver did not exist before the receipt and does after it succeeded. */
  readonly createdAccount: boolean;
}

/**
 * nearcore `refund_unspent_gas_and_deposits` (gas part): an account created by the receipt
 * should cost `account_creation_charge`; the create-account execution gas already burnt counts
 * towards it, the rest comes out of the price surplus (never more than the surplus).
 */
export function gasRefund(p: RuntimeParameters, input: GasRefundInput): GasRefund {
  const { purchasePrice, burnPrice } = input;
  const unusedGasAmount = purchasePrice * input.unusedGas;
  const priceSurplus = (purchasePrice - burnPrice) * input.gasBurnt;
  let createAccountCharge = 0n;
  if (input.createdAccount) {
    const burntCost = burnPrice * p.fees.createAccount.execution;
    const wanted = p.accountCreationCharge > burntCost ? p.accountCreationCharge - burntCost : 0n;
    createAccountCharge = wanted < priceSurplus ? wanted : priceSurplus;
  }
  return { unusedGasAmount, priceSurplus, createAccountCharge, amount: unusedGasAmount + priceSurplus - createAccountCharge };
}

/** Tokens a receipt's gas burns: gas burnt at the burn price plus the account-creation charge. */
export function receiptGasTokensBurnt(burnPrice: bigint, gasBurnt: bigint, refund: GasRefund): bigint {
  return burnPrice * gasBurnt + refund.createAccountCharge;
}
