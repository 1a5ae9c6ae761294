import type { Account } from "../primitives/account.js";
import { accountContractOf, type AccountContract } from "./accountContract.js";
import { latin1ToBytes } from "../primitives/latin1.js";
import { ActionResult, type NewReceipt, type StakeProposal } from "./ActionResult.js";
import type { ActionEnv } from "./actions/ActionEnv.js";
import { applyAction } from "./actions/applyAction.js";
import { totalDeposit, totalPrepaidExecFees, totalPrepaidGas, totalPrepaidSendFees } from "./actionFees.js";
import type { ApplyContext } from "./ApplyContext.js";
import type { ExecutionOutcome, ExecutionStatus } from "./executionOutcome.js";
import { gasBurnPrice, gasRefund, receiptGasTokensBurnt, type GasRefund } from "./gasPricing.js";
import { balanceRefundReceipt, gasRefundReceipt, SYSTEM_ACCOUNT, type ActionReceiptOf, type Receipt } from "./receipt.js";
import { receiptIdFromReceipt } from "./receiptId.js";
import { receivedDataKey } from "./runtimeTrieKeys.js";
import { getAccount, setAccount } from "./stateAccess.js";
import type { StateUpdate } from "./StateUpdate.js";
import { lackingStorageStake } from "./storageStake.js";
import { at } from "../must.js";

/** The effects of executing one action receipt. */
export interface ReceiptExecution {
  readonly outcome: ExecutionOutcome;
  /** New receipts with their ids, in creation order (action and data receipts). */
  readonly newReceipts: Receipt[];
  /**
   * Tokens this execution removed from the supply (burnt gas net of rewards, lost refunds),
   * less the deposits it minted (one_yocto_on_promise; nearcore's chunk balance_burnt
   * subtracts `subsidized_amount`, the outcome's tokens_burnt does not).
   */
  readonly burnt: bigint;
  readonly proposals: StakeProposal[];
}

/**
 * Reads and removes the data an action receipt waited for (nearcore: `ReceivedData`,
 * Option<Vec<u8>>), with the bytes they take in the state (their Borsh form).
 */
function takePromiseResults(su: StateUpdate, receipt: ActionReceiptOf): { results: (Uint8Array | null)[]; size: number } {
  let size = 0;
  const results = receipt.body.inputDataIds.map((id) => {
    const key = receivedDataKey(receipt.receiverId, id);
    const raw = su.get(key);
    if (raw === undefined) throw new Error("received data should be in the state");
    su.remove(key);
    size += raw.length;
    const bytes = latin1ToBytes(raw);
    return bytes[0] === 1 ? bytes.slice(5) : null;
  });
  return { results, size };
}

/**
 * nearcore lib.rs `apply_action_receipt`: runs the actions in order (the first failure stops
 * them and undoes every state write of the receipt), checks the receiver can still pay for
 * its storage, refunds unused gas (to the signer) and failed deposits (to the predecessor)
 * with receipts from `system`, sends the result to `output_data_receivers`, and returns the
 * outcome. Gas is burnt at the burn price, the contract reward priced at it too, and an account
 * the receipt created adds `account_creation_charge` to the tokens burnt (gasPricing.ts).
 * Refund receipts are free: their outcome reports the gas (it counts towards the chunk's gas)
 * but burns no tokens; a refund that fails burns its deposit.
 */
export function applyActionReceipt(ctx: ApplyContext, su: StateUpdate, receipt: ActionReceiptOf): ReceiptExecution {
  const p = ctx.params;
  const body = receipt.body;
  const accountId = receipt.receiverId;
  const isRefund = receipt.predecessorId === SYSTEM_ACCOUNT;
  const inputs = takePromiseResults(su, receipt);
  // ReceiptPromiseInputSizeLimit (87): too much input data fails the receipt before any action.
  const inputsTooLarge = inputs.size > p.limits.maxReceiptTotalInputSize;
  // Writes staged before the actions (received data taken, a delayed or postponed receipt
  // removed) are committed first, so that a failing action cannot roll them back.
  su.commit({ type: "action_receipt_processing_started", receiptHash: receipt.receiptId });

  const initialAccount = getAccount(su, accountId);
  const env: ActionEnv = {
    ctx,
    su,
    receipt,
    accountId,
    account: initialAccount,
    actorId: receipt.predecessorId,
    promiseResults: inputsTooLarge ? [] : inputs.results,
  };
  const result = new ActionResult(p.fees.actionReceiptCreation.execution);
  if (inputsTooLarge) result.fail({ TotalPromiseInputSizeExceeded: { size: inputs.size, limit: p.limits.maxReceiptTotalInputSize } });
  // ExecutionMetadata V4: the receiver's contract before each action; slots after a failure stay None.
  const contracts: AccountContract[] = body.actions.map(() => null);
  for (let i = 0; result.ok && i < body.actions.length; i++) {
    contracts[i] = accountContractOf(env.account);
    result.merge(applyAction(env, at(body.actions, i), i, body.actions));
    if (result.error !== undefined) {
      result.error.index = i;
      break;
    }
  }

  /** The receiver's account as this receipt leaves it in the state (when it wrote it). */
  let written: Account | undefined;
  if (result.ok && env.account !== undefined) {
    const lacking = lackingStorageStake(p, env.account);
    if (lacking === undefined) {
      setAccount(su, accountId, env.account);
      written = env.account;
    } else {
      const failed = new ActionResult();
      failed.fail({ LackBalanceForState: { account_id: accountId, amount: lacking.toString() } });
      result.merge(failed);
    }
  }

  const burnPrice = gasBurnPrice(body.gasPrice, ctx.gasPrice);
  let burnt = 0n;
  let gasTokensBurnt = 0n;
  if (isRefund) {
    if (!result.ok) burnt += totalDeposit(body.actions);
  } else {
    const createdAccount = initialAccount === undefined && result.ok && env.account !== undefined;
    const refund = unspentGasRefund(ctx, receipt, result, burnPrice, createdAccount);
    result.newReceipts.push(...refundReceipts(receipt, result, refund));
    gasTokensBurnt = receiptGasTokensBurnt(burnPrice, result.gasBurnt, refund);
  }
  if (result.ok) su.commit({ type: "receipt_processing", receiptHash: receipt.receiptId });
  else su.rollback();

  // A failed receipt's state writes (the storage paid for a global contract) are undone above.
  const tokensBurnt = gasTokensBurnt + (result.ok ? result.tokensBurnt : 0n);
  burnt += tokensBurnt - (result.ok ? result.subsidizedAmount : 0n);
  const rewardGas = (result.gasBurntForFunctionCall * p.burntGasReward.numerator) / p.burntGasReward.denominator;
  const reward = rewardGas * burnPrice;
  if (reward > 0n) {
    // After a success the state holds what was just written: no need to read and decode it.
    const account = result.ok && written !== undefined ? written : getAccount(su, accountId);
    if (account !== undefined) {
      setAccount(su, accountId, { ...account, amount: account.amount + reward });
      su.commit({ type: "action_receipt_gas_reward", receiptHash: receipt.receiptId });
      burnt -= reward;
    }
  }

  if (body.outputDataReceivers.length > 0) {
    const rd = result.returnData;
    if (result.ok && rd.kind === "ReceiptIndex") {
      const target = result.newReceipts[rd.index];
      if (target === undefined || target.body.type !== "Action") throw new Error("the returned receipt should be an action receipt");
      result.newReceipts[rd.index] = {
        ...target,
        body: { ...target.body, outputDataReceivers: [...target.body.outputDataReceivers, ...body.outputDataReceivers] },
      };
    } else {
      const data = !result.ok ? null : rd.kind === "Value" ? rd.value : new Uint8Array(0);
      for (const receiver of body.outputDataReceivers) {
        result.newReceipts.push({
          predecessorId: accountId,
          receiverId: receiver.receiverId,
          body: { type: "Data", dataId: receiver.dataId, data },
        });
      }
    }
  }

  // Fields named rather than spread: receipts keep the one shape a transaction's receipt has.
  const newReceipts: Receipt[] = result.newReceipts.map((r, i) => ({
    predecessorId: r.predecessorId,
    receiverId: r.receiverId,
    receiptId: receiptIdFromReceipt(receipt.receiptId, ctx.blockHeight, i),
    body: r.body,
  }));
  let status: ExecutionStatus;
  if (result.error !== undefined) {
    status = { kind: "Failure", error: { ActionError: { index: result.error.index, kind: result.error.kind } } };
  } else if (result.returnData.kind === "ReceiptIndex") {
    status = { kind: "SuccessReceiptId", receiptId: at(newReceipts, result.returnData.index).receiptId };
  } else {
    status = { kind: "SuccessValue", value: result.returnData.kind === "Value" ? result.returnData.value : new Uint8Array(0) };
  }
  return {
    outcome: {
      id: receipt.receiptId,
      logs: result.logs,
      receiptIds: newReceipts.filter((r) => r.body.type === "Action").map((r) => r.receiptId),
      gasBurnt: result.gasBurnt,
      tokensBurnt,
      executorId: accountId,
      status,
      metadataVersion: 4,
      gasProfile: result.gasProfile,
      contracts,
    },
    newReceipts,
    burnt,
    proposals: result.ok ? result.proposals : [],
  };
}

/**
 * nearcore lib.rs `refund_unspent_gas_and_deposits`, gas part: the gas bought for the receipt
 * (attached gas, prepaid fees) minus what it burnt (on failure) or used (on success, gas handed
 * on to new receipts included), with the price surplus and account charge of gasPricing.ts.
 */
function unspentGasRefund(
  ctx: ApplyContext,
  receipt: ActionReceiptOf,
  result: ActionResult,
  burnPrice: bigint,
  createdAccount: boolean,
): GasRefund {
  const p = ctx.params;
  const body = receipt.body;
  const prepaidGas = totalPrepaidGas(body.actions) + totalPrepaidSendFees(p, body.actions);
  const prepaidExecGas = totalPrepaidExecFees(p, body.actions, receipt.receiverId) + p.fees.actionReceiptCreation.execution;
  const spent = result.ok ? result.gasUsed : result.gasBurnt;
  const unusedGas = prepaidGas + prepaidExecGas - spent;
  if (unusedGas < 0n) throw new Error(`receipt ${receipt.receiverId} spent more gas than it bought (${spent} > ${prepaidGas + prepaidExecGas})`);
  return gasRefund(p, { purchasePrice: body.gasPrice, burnPrice, unusedGas, gasBurnt: result.gasBurnt, createdAccount });
}

/**
 * nearcore lib.rs `generate_refund_receipts`: the deposit of a failed receipt goes back to the
 * predecessor, then the gas refund to the signer; a zero refund makes no receipt.
 */
function refundReceipts(receipt: ActionReceiptOf, result: ActionResult, refund: GasRefund): NewReceipt[] {
  const body = receipt.body;
  const depositRefund = result.ok ? 0n : totalDeposit(body.actions);
  const out: NewReceipt[] = [];
  // nearcore `balance_refund_receiver`: the receipt's refund_to, else its predecessor.
  if (depositRefund > 0n) out.push(balanceRefundReceipt(receipt.body.refundTo ?? receipt.predecessorId, depositRefund));
  if (refund.amount > 0n) out.push(gasRefundReceipt(body.signerId, body.signerPublicKey, refund.amount));
  return out;
}
