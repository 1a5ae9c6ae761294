import type { DeleteAccountAction } from "../../transaction/index.js";
import type { ActionResult } from "../ActionResult.js";
import { balanceRefundReceipt } from "../receipt.js";
import { GAS_KEY_MAX_BALANCE_TO_BURN } from "../gasKeys.js";
import { gasKeyBalanceSum, removeAccountState } from "../stateAccess.js";
import { clearContractStorageUsage } from "./clearContractStorageUsage.js";
import { type ActionEnv, receiverAccount } from "./ActionEnv.js";

/**
 * nearcore actions.rs `action_delete_account`: refused when the state without the contract
 * (the local code, or a global contract's identifier: FixDeleteAccountGlobalContractStorageUsage,
 * protocol 85) exceeds 10,000 bytes (DeleteAccountWithLargeState); the balance goes to the beneficiary as a
 * balance-refund receipt from `system` (so it does not create accounts, and is burnt if the
 * beneficiary does not exist); all state of the account is removed; the actor falls back to
 * the predecessor. The account's gas-key balances are burnt, unless together they exceed
 * 1 NEAR (GasKeyBalanceTooHigh with no public key: withdraw them first).
 */
export function deleteAccount(env: ActionEnv, action: DeleteAccountAction, result: ActionResult): void {
  const account = receiverAccount(env);
  const withoutCode = clearContractStorageUsage(env, account);
  if (withoutCode > env.ctx.params.maxAccountDeletionStorageUsage) {
    result.fail({ DeleteAccountWithLargeState: { account_id: env.accountId } });
    return;
  }
  const gasKeyBalances = gasKeyBalanceSum(env.su, env.accountId);
  if (gasKeyBalances > GAS_KEY_MAX_BALANCE_TO_BURN) {
    result.fail({ GasKeyBalanceTooHigh: { account_id: env.accountId, public_key: null, balance: gasKeyBalances.toString() } });
    return;
  }
  result.tokensBurnt += gasKeyBalances;
  if (account.amount > 0n) {
    result.newReceipts.push(balanceRefundReceipt(action.beneficiaryId, account.amount));
  }
  removeAccountState(env.su, env.accountId);
  env.actorId = env.receipt.predecessorId;
  env.account = undefined;
}
