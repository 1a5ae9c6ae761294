import { formatPublicKey } from "@shardkit/primitives/publicKey";
import { accessKeyStorageUsage } from "../../genesis/storageUsage.js";
import type { DeleteKeyAction } from "../../transaction/index.js";
import type { ActionResult } from "../ActionResult.js";
import { getAccessKey, removeAccessKey } from "../stateAccess.js";
import { type ActionEnv, receiverAccount } from "./ActionEnv.js";

/** nearcore access_keys.rs `action_delete_key`: the key must exist; its storage is released. */
export function deleteKey(env: ActionEnv, action: DeleteKeyAction, result: ActionResult): void {
  const key = getAccessKey(env.su, env.accountId, action.publicKey);
  if (key === undefined) {
    result.fail({ DeleteKeyDoesNotExist: { account_id: env.accountId, public_key: formatPublicKey(action.publicKey) } });
    return;
  }
  removeAccessKey(env.su, env.accountId, action.publicKey);
  const account = receiverAccount(env);
  const usage = accessKeyStorageUsage(action.publicKey, key);
  env.account = { ...account, storageUsage: Math.max(0, account.storageUsage - usage) };
}
