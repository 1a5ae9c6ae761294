import type { Action } from "../../transaction/index.js";
import { execFee } from "../actionFees.js";
import { ActionResult } from "../ActionResult.js";
import { SYSTEM_ACCOUNT } from "../receipt.js";
import type { ActionEnv } from "./ActionEnv.js";
import { addKey } from "./addKey.js";
import { checkAccountExistence } from "./checkAccountExistence.js";
import { checkActorPermissions } from "./checkActorPermissions.js";
import { createAccount } from "./createAccount.js";
import { delegate } from "./delegate.js";
import { deleteAccount } from "./deleteAccount.js";
import { deleteKey } from "./deleteKey.js";
import { deployContract } from "./deployContract.js";
import { deployGlobalContract } from "./deployGlobalContract.js";
import { deterministicStateInit } from "./deterministicStateInit.js";
import { functionCall } from "./functionCall.js";
import { stake } from "./stake.js";
import { transfer } from "./transfer.js";
import { transferToGasKey } from "./transferToGasKey.js";
import { useGlobalContract } from "./useGlobalContract.js";
import { withdrawFromGasKey } from "./withdrawFromGasKey.js";

/**
 * nearcore lib.rs `apply_action`: the action's execution fee is burnt whatever happens; then
 * account existence, actor permissions, and the action itself.
 */
export function applyAction(env: ActionEnv, action: Action, index: number, actions: readonly Action[]): ActionResult {
  const result = new ActionResult(execFee(env.ctx.params, action, env.accountId));
  const isRefund = env.receipt.predecessorId === SYSTEM_ACCOUNT;
  const existence = checkAccountExistence(env, action, actions.length === 1 && !isRefund);
  if (existence !== undefined) {
    result.fail(existence);
    return result;
  }
  const permission = checkActorPermissions(env, action);
  if (permission !== undefined) {
    result.fail(permission);
    return result;
  }
  switch (action.type) {
    case "CreateAccount":
      createAccount(env, result);
      break;
    case "DeployContract":
      deployContract(env, action);
      break;
    case "FunctionCall":
      functionCall(env, action, index, index + 1 === actions.length, result);
      break;
    case "Transfer":
      transfer(env, action);
      break;
    case "Stake":
      stake(env, action, result);
      break;
    case "AddKey":
      addKey(env, action, result);
      break;
    case "DeleteKey":
      deleteKey(env, action, result);
      break;
    case "DeleteAccount":
      deleteAccount(env, action, result);
      break;
    case "Delegate":
    case "DelegateV2":
      delegate(env, action, result);
      break;
    case "DeployGlobalContract":
      deployGlobalContract(env, action, result);
      break;
    case "UseGlobalContract":
      useGlobalContract(env, action, result);
      break;
    case "TransferToGasKey":
      transferToGasKey(env, action, result);
      break;
    case "WithdrawFromGasKey":
      withdrawFromGasKey(env, action, result);
      break;
    case "DeterministicStateInit":
      deterministicStateInit(env, action, result);
      break;
    default: {
      // Every action type is handled above: a receipt decoded into anything else is corrupt.
      const unknown: never = action;
      throw new Error(`cannot execute an action of an unknown type (${String(unknown)})`);
    }
  }
  return result;
}
