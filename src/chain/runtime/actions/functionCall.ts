import type { FunctionCallAction } from "../../transaction/index.js";
import type { ActionResult } from "../ActionResult.js";
import type { ActionEnv } from "./ActionEnv.js";

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
  const account = env.account!;
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
  if (!outcome.ok) {
    result.fail({ FunctionCallError: outcome.error });
    return;
  }
  env.account = { ...account, amount: outcome.balance, storageUsage: outcome.storageUsage };
  result.newReceipts.push(...outcome.newReceipts);
  result.returnData = outcome.returnData;
}
