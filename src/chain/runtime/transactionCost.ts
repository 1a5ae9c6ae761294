import { ShardkitError } from "@shardkit/primitives/ShardkitError";
import type { Action } from "../transaction/index.js";
import { totalDeposit, totalPrepaidExecFees, totalPrepaidGas, totalPrepaidSendFees, totalSendFees } from "./actionFees.js";
import { U128_MAX, U64_MAX } from "../primitives/integerLimits.js";
import type { RuntimeParameters } from "./parameters.js";

/** What converting a transaction into a receipt costs (nearcore config.rs `TransactionCost`). */
export interface TransactionCost {
  /** Gas burnt by the conversion (send fees of the receipt and its actions). */
  readonly gasBurnt: bigint;
  /** Gas bought for later: execution fees, attached gas, a Delegate's inner send fees. */
  readonly gasRemaining: bigint;
  /** The price the gas was bought at; the receipt carries it. */
  readonly receiptGasPrice: bigint;
  /** Everything the signer pays: burnt + remaining gas at the price, plus all deposits. */
  readonly totalCost: bigint;
  /** gasBurnt × price. */
  readonly burntAmount: bigint;
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

/** nearcore `calculate_tx_cost`: the cost of a transaction with `actions` from signer to receiver. */
export function transactionCost(
  p: RuntimeParameters,
  signerId: string,
  receiverId: string,
  actions: readonly Action[],
  gasPrice: bigint,
): TransactionCost {
  const sir = signerId === receiverId;
  const receiptFee = p.fees.actionReceiptCreation;
  const gasBurnt = gas((sir ? receiptFee.sendSir : receiptFee.sendNotSir) + gas(totalSendFees(p, sir, actions, receiverId)));
  const prepaid = gas(gas(totalPrepaidGas(actions)) + gas(totalPrepaidSendFees(p, actions)));
  const gasRemaining = gas(prepaid + receiptFee.execution + gas(totalPrepaidExecFees(p, actions, receiverId)));
  const burntAmount = balance(gasPrice * gasBurnt);
  const remainingAmount = balance(gasPrice * gasRemaining);
  const totalCost = balance(balance(burntAmount + remainingAmount) + balance(totalDeposit(actions)));
  return { gasBurnt, gasRemaining, receiptGasPrice: gasPrice, totalCost, burntAmount };
}
