import { gasKeyInfoOf } from "@shardkit/primitives/accessKey";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import { accessKeyStorageUsage } from "../../genesis/storageUsage.js";
import type { DeleteKeyAction } from "../../transaction/index.js";
import type { ActionResult } from "../ActionResult.js";
import { GAS_KEY_MAX_BALANCE_TO_BURN, gasKeyStorageUsage } from "../gasKeys.js";
import { getAccessKey, removeAccessKey, removeGasKeyNonces } from "../stateAccess.js";
import { type ActionEnv, receiverAccount } from "./ActionEnv.js";

/**
 * nearcore access_keys.rs `action_delete_key`: the key must exist; its storage is released. A
 * gas key (`delete_gas_key`) also loses its nonce rows and its balance is burnt, unless that
 * is more than 1 NEAR (GasKeyBalanceTooHigh: withdraw it first).
 */
export function deleteKey(env: ActionEnv, action: DeleteKeyAction, result: ActionResult): void {
  const key = getAccessKey(env.su, env.accountId, action.publicKey);
  if (key === undefined) {
    result.fail({ DeleteKeyDoesNotExist: { account_id: env.accountId, public_key: formatPublicKey(action.publicKey) } });
    return;
  }
  const info = gasKeyInfoOf(key.permission);
  let usage = accessKeyStorageUsage(action.publicKey, key);
  if (info !== undefined) {
    if (info.balance > GAS_KEY_MAX_BALANCE_TO_BURN) {
      result.fail({
        GasKeyBalanceTooHigh: { account_id: env.accountId, public_key: formatPublicKey(action.publicKey), balance: info.balance.toString() },
      });
      return;
    }
    result.tokensBurnt += info.balance;
    removeGasKeyNonces(env.su, env.accountId, action.publicKey, info.numNonces);
    usage = gasKeyStorageUsage(action.publicKey, key, info.numNonces);
  }
  removeAccessKey(env.su, env.accountId, action.publicKey);
  const account = receiverAccount(env);
  env.account = { ...account, storageUsage: Math.max(0, account.storageUsage - usage) };
}
