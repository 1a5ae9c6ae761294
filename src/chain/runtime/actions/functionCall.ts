import type { FunctionCallAction } from "../../transaction/index.js";
import type { ActionResult, NewReceipt } from "../ActionResult.js";
import type { ReceiptValidationErrorJson } from "../actionError.js";
import { validateActions } from "../validateActions.js";
import { enqueuePromiseYieldTimeout } from "../PromiseYieldTimeouts.js";
import { type ActionEnv, receiverAccount } from "./ActionEnv.js";
import { at } from "../../must.js";

/**
 * nearcore actions.rs `action_function_call`, minus the VM: the executor runs the call; on
 * success the account takes the balance and storage usage it reports (deposit included), its
 * new receipts and its return value. VM gas adds to the action's execution fee; logs are kept
 * even when the call fails (its state writes are undone with the whole receipt).
 */
export function functionCall(
  env: ActionEnv,
  action: FunctionCallAction,
  actionIndex: number,
  isLastAction: boolean,
  result: ActionResult,
): void {
  const account = receiverAccount(env);
  const outcome = env.ctx.functionCalls({
    ctx: env.ctx,
    su: env.su,
    receipt: env.receipt,
    accountId: env.accountId,
    account,
    action,
    actionIndex,
    promiseResults: env.promiseResults,
    blockHeight: env.ctx.blockHeight,
    isLastAction,
  });
  result.gasBurnt += outcome.gasBurnt;
  result.gasBurntForFunctionCall += outcome.gasBurnt;
  result.gasUsed += outcome.gasUsed;
  result.logs.push(...outcome.logs);
  if (outcome.gasProfile !== undefined) result.gasProfile = outcome.gasProfile; // never modified: merges make new arrays
  if (!outcome.ok) {
    result.fail({ FunctionCallError: outcome.error });
    return;
  }
  const invalid = firstInvalidReceipt(env, outcome.newReceipts);
  if (invalid !== undefined) {
    result.fail({ NewReceiptValidationError: invalid });
    return;
  }
  // Each yield gets its timeout (nearcore action_function_call, on success).
  const expiresAt = env.ctx.blockHeight + env.ctx.params.wasm.yieldTimeoutLengthInBlocks;
  for (const r of outcome.newReceipts) {
    if (r.body.type === "Action" && r.body.isPromiseYield === true) enqueuePromiseYieldTimeout(env.su, env.accountId, at(r.body.inputDataIds, 0), expiresAt);
  }
  env.account = { ...account, amount: outcome.balance, storageUsage: outcome.storageUsage };
  result.subsidizedAmount += outcome.subsidizedAmount ?? 0n;
  result.newReceipts.push(...outcome.newReceipts);
  result.returnData = outcome.returnData;
}

/**
 * nearcore lib.rs: receipts a call creates are validated (`validate_receipt`, NewReceipt mode)
 * and the action fails with NewReceiptValidationError on the first bad one. Account ids are
 * already checked by the host; what remains is the input-data count and the actions' limits.
 */
function firstInvalidReceipt(env: ActionEnv, receipts: readonly NewReceipt[]): ReceiptValidationErrorJson | undefined {
  const p = env.ctx.params;
  for (const r of receipts) {
    if (r.body.type !== "Action") continue;
    const inputs = r.body.inputDataIds.length;
    if (inputs > p.limits.maxNumberInputDataDependencies) {
      return { NumberInputDataDependenciesExceeded: { number_of_input_data_dependencies: inputs, limit: p.limits.maxNumberInputDataDependencies } };
    }
    const error = validateActions(p, r.body.actions, r.receiverId, env.ctx.protocolVersion);
    if (error !== undefined) return { ActionsValidation: error };
  }
  return undefined;
}
