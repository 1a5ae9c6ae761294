import { gasKeyInfoOf, type AccessKey } from "@shardkit/primitives/accessKey";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import { accessKeyStorageUsage } from "../../genesis/storageUsage.js";
import type { AddKeyAction } from "../../transaction/index.js";
import type { ActionResult } from "../ActionResult.js";
import { gasKeyStorageUsage } from "../gasKeys.js";
import { getAccessKey, setAccessKey, setGasKeyNonce } from "../stateAccess.js";
import { type ActionEnv, receiverAccount } from "./ActionEnv.js";

/**
 * nearcore access_keys.rs `action_add_key`: the key must be new. A plain key's nonce is
 * (height − 1) × 10^6 whatever the action says; storage grows by borsh(pk) + borsh(key) + 40.
 * A gas key (`add_gas_key`) keeps nonce 0 and gets `num_nonces` nonce rows at (height − 1) ×
 * 10^6 instead, each costing storage too (gasKeys.ts).
 */
export function addKey(env: ActionEnv, action: AddKeyAction, result: ActionResult): void {
  const p = env.ctx.params;
  if (getAccessKey(env.su, env.accountId, action.publicKey) !== undefined) {
    result.fail({ AddKeyAlreadyExists: { account_id: env.accountId, public_key: formatPublicKey(action.publicKey) } });
    return;
  }
  const initialNonce = BigInt(env.ctx.blockHeight - 1) * p.accessKeyNonceRangeMultiplier;
  const permission = action.accessKey.permission;
  const info = gasKeyInfoOf(permission);
  const key: AccessKey = { nonce: info === undefined ? initialNonce : 0n, permission };
  setAccessKey(env.su, env.accountId, action.publicKey, key);
  const account = receiverAccount(env);
  if (info === undefined) {
    env.account = { ...account, storageUsage: account.storageUsage + accessKeyStorageUsage(action.publicKey, key) };
    return;
  }
  for (let i = 0; i < info.numNonces; i++) setGasKeyNonce(env.su, env.accountId, action.publicKey, i, initialNonce);
  env.account = { ...account, storageUsage: account.storageUsage + gasKeyStorageUsage(action.publicKey, key, info.numNonces) };
}
