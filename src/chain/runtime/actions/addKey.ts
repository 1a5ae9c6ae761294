import type { AccessKey } from "@shardkit/primitives/accessKey";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import { accessKeyStorageUsage } from "../../genesis/storageUsage.js";
import type { AddKeyAction } from "../../transaction/index.js";
import type { ActionResult } from "../ActionResult.js";
import { getAccessKey, setAccessKey } from "../stateAccess.js";
import { type ActionEnv, receiverAccount } from "./ActionEnv.js";

/**
 * nearcore access_keys.rs `action_add_key`: the key must be new; its nonce is
 * (height − 1) × 10^6 whatever the action says; storage grows by borsh(pk) + borsh(key) + 40.
 * Gas-key permissions never get here (validation refuses them).
 */
export function addKey(env: ActionEnv, action: AddKeyAction, result: ActionResult): void {
  const p = env.ctx.params;
  if (getAccessKey(env.su, env.accountId, action.publicKey) !== undefined) {
    result.fail({ AddKeyAlreadyExists: { account_id: env.accountId, public_key: formatPublicKey(action.publicKey) } });
    return;
  }
  const permission = action.accessKey.permission;
  if (permission !== "FullAccess" && !("FunctionCall" in permission)) throw new Error("gas-key permission reached AddKey");
  const key: AccessKey = { nonce: BigInt(env.ctx.blockHeight - 1) * p.accessKeyNonceRangeMultiplier, permission };
  setAccessKey(env.su, env.accountId, action.publicKey, key);
  const account = receiverAccount(env);
  env.account = { ...account, storageUsage: account.storageUsage + accessKeyStorageUsage(action.publicKey, key) };
}
