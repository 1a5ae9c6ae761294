import { sha256 } from "../../primitives/sha256.js";
import type { DeployContractAction } from "../../transaction/index.js";
import { codeLength, setCode } from "../stateAccess.js";
import type { ActionEnv } from "./ActionEnv.js";

/**
 * nearcore actions.rs `action_deploy_contract`: replaces the code; storage usage drops by the
 * old code's length and grows by the new one's; code_hash = sha256(code).
 */
export function deployContract(env: ActionEnv, action: DeployContractAction): void {
  const account = env.account!;
  const previous = codeLength(env.su, env.accountId);
  setCode(env.su, env.accountId, action.code);
  env.account = {
    ...account,
    codeHash: sha256(action.code),
    storageUsage: Math.max(0, account.storageUsage - previous) + action.code.length,
  };
}
