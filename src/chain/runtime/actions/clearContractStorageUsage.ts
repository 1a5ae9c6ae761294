import type { Account } from "../../primitives/account.js";
import { codeLength } from "../stateAccess.js";
import type { ActionEnv } from "./ActionEnv.js";

/**
 * nearcore actions.rs `clear_account_contract_storage_usage`: before the account gets another
 * contract, its storage usage drops by what the current one counts: the local code's length,
 * or the global contract identifier's (32 bytes for a code hash, the account id's length).
 */
export function clearContractStorageUsage(env: ActionEnv, account: Account): number {
  const g = account.globalContract;
  const counted = g === undefined ? codeLength(env.su, env.accountId) : g.kind === "CodeHash" ? 32 : g.accountId.length;
  return Math.max(0, account.storageUsage - counted);
}
