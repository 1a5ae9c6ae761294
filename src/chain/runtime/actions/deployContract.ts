import { sha256 } from "../../primitives/sha256.js";
import type { DeployContractAction } from "../../transaction/index.js";
import { setCode } from "../stateAccess.js";
import { type ActionEnv, receiverAccount } from "./ActionEnv.js";
import { clearContractStorageUsage } from "./clearContractStorageUsage.js";

/**
 * nearcore actions.rs `action_deploy_contract`: replaces the code (a global contract the
 * account used is dropped); storage usage drops by what the old contract counted and grows by
 * the new code's length; code_hash = sha256(code).
 */
export function deployContract(env: ActionEnv, action: DeployContractAction): void {
  const account = receiverAccount(env);
  const storageUsage = clearContractStorageUsage(env, account) + action.code.length;
  setCode(env.su, env.accountId, action.code);
  env.account = { ...account, codeHash: sha256(action.code), storageUsage, globalContract: undefined };
}
