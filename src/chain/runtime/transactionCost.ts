import { KeyType, type PublicKey } from "@shardkit/primitives/publicKey";
import { ShardkitError } from "@shardkit/primitives/ShardkitError";
import type { Action } from "../transaction/index.js";
import { totalDeposit, totalPrepaidExecFees, totalPrepaidGas, totalPrepaidSendFees, totalSendFees } from "./actionFees.js";
import { U128_MAX, U64_MAX } from "../primitives/integerLimits.js";
import { gasPurchasePrice } from "./gasPricing.js";
import type { RuntimeParameters } from "./parameters.js";

/** What converting a transaction into a receipt costs (nearcore config.rs `TransactionCost`). */
export interface TransactionCost {
  /** Gas burnt by the conversion (send fees of the receipt and its actions, ML-DSA-65 verification). */
  readonly gasBurnt: bigint;
  /** Gas bought for later: execution fees, attached gas, a Delegate's inner send fees. */
  readonly gasRemaining: bigint;
  /** The price the remaining gas was bought at (see gasPricing.ts); the receipt carries it. */
  readonly receiptGasPrice: bigint;
  /** Everything the signer pays: burnt gas at the block's price, remaining gas at the receipt's, plus all deposits. */
  readonly totalCost: bigint;
  /** gasBurnt × the block's gas price. */
  readonly burntAmount: bigint;
  /** Tokens the actions attach (a gas-key transaction pays them from the account, its gas from the key). */
  readonly depositCost: bigint;
}

/** Thrown when the cost leaves u64 gas or u128 balance (nearcore `IntegerOverflowError` → CostOverflow). */
export class CostOverflowError extends ShardkitError<"COST_OVERFLOW"> {
  override readonly name = "CostOverflowError";
  constructor(message: string) {
    super("COST_OVERFLOW", message);
  }
}

function gas(v: bigint): bigint {
  if (v > U64_MAX) throw new CostOverflowError("gas overflow");
  return v;
}

function balance(v: bigint): bigint {
  if (v > U128_MAX) throw new CostOverflowError("balance overflow");
  return v;
}

/**
 * nearcore `signature_verification_cost`: `ml_dsa_65_verification_cost` for the signer's key
 * and for each Delegate action's inner key that is ML-DSA-65 (other key types cost nothing).
 */
function signatureVerificationCost(p: RuntimeParameters, signerKey: PublicKey, actions: readonly Action[]): bigint {
  const cost = (key: PublicKey) => (key.keyType === KeyType.MLDSA65 ? p.fees.mlDsa65Verification : 0n);
  let total = cost(signerKey);
  for (const a of actions) {
    if (a.type === "Delegate") total += cost(a.delegateAction.publicKey);
    else if (a.type === "DelegateV2") total += cost(a.payload.delegateAction.publicKey);
  }
  return gas(total);
}

/**
 * nearcore `calculate_tx_cost`: the cost of a transaction with `actions` from signer to
 * receiver, signed with `signerKey`. Signature verification is burnt with the send fees: it
 * raises what the signer buys, never the gas left for the receipts. The conversion's gas is
 * burnt at the block's price; the receipt's gas is bought at the purchase price (at least
 * min_gas_purchase_price, NEP-642).
 */
export function transactionCost(
  p: RuntimeParameters,
  signerId: string,
  receiverId: string,
  actions: readonly Action[],
  gasPrice: bigint,
  signerKey: PublicKey,
): TransactionCost {
  const sir = signerId === receiverId;
  const receiptFee = p.fees.actionReceiptCreation;
  const sendGas = gas((sir ? receiptFee.sendSir : receiptFee.sendNotSir) + gas(totalSendFees(p, sir, actions, receiverId)));
  const gasBurnt = gas(sendGas + signatureVerificationCost(p, signerKey, actions));
  const prepaid = gas(gas(totalPrepaidGas(actions)) + gas(totalPrepaidSendFees(p, actions)));
  const gasRemaining = gas(prepaid + receiptFee.execution + gas(totalPrepaidExecFees(p, actions, receiverId)));
  const receiptGasPrice = gasPurchasePrice(p, gasPrice);
  const burntAmount = balance(gasPrice * gasBurnt);
  const remainingAmount = balance(receiptGasPrice * gasRemaining);
  const depositCost = balance(totalDeposit(actions));
  const totalCost = balance(balance(burntAmount + remainingAmount) + depositCost);
  return { gasBurnt, gasRemaining, receiptGasPrice, totalCost, burntAmount, depositCost };
}
