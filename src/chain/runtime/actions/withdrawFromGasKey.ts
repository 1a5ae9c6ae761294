import { gasKeyInfoOf, withGasKeyBalance } from "@shardkit/primitives/accessKey";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import type { WithdrawFromGasKeyAction } from "../../transaction/index.js";
import type { ActionResult } from "../ActionResult.js";
import { getAccessKey, setAccessKey } from "../stateAccess.js";
import { type ActionEnv, receiverAccount } from "./ActionEnv.js";

/**
 * nearcore access_keys.rs `action_withdraw_from_gas_key`: moves `amount` from the account's own
 * gas key back to the account (only the account itself may, see checkActorPermissions). A
 * missing or non-gas key is GasKeyDoesNotExist; more than the balance InsufficientGasKeyBalance.
 */
export function withdrawFromGasKey(env: ActionEnv, action: WithdrawFromGasKeyAction, result: ActionResult): void {
  const key = getAccessKey(env.su, env.accountId, action.publicKey);
  const info = key === undefined ? undefined : gasKeyInfoOf(key.permission);
  const publicKey = formatPublicKey(action.publicKey);
  if (key === undefined || info === undefined) {
    result.fail({ GasKeyDoesNotExist: { account_id: env.accountId, public_key: publicKey } });
    return;
  }
  if (info.balance < action.amount) {
    result.fail({
      InsufficientGasKeyBalance: {
        account_id: env.accountId,
        public_key: publicKey,
        balance: info.balance.toString(),
        required: action.amount.toString(),
      },
    });
    return;
  }
  setAccessKey(env.su, env.accountId, action.publicKey, { ...key, permission: withGasKeyBalance(key.permission, info.balance - action.amount) });
  const account = receiverAccount(env);
  env.account = { ...account, amount: account.amount + action.amount };
}
