import { gasKeyInfoOf, withGasKeyBalance } from "@shardkit/primitives/accessKey";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import type { TransferToGasKeyAction } from "../../transaction/index.js";
import type { ActionResult } from "../ActionResult.js";
import { getAccessKey, setAccessKey } from "../stateAccess.js";
import type { ActionEnv } from "./ActionEnv.js";

/**
 * nearcore access_keys.rs `action_transfer_to_gas_key`: the deposit (paid by the signer with
 * the transaction) goes to the balance of the receiver's gas key; anyone may fund it. A key
 * that is missing or not a gas key is GasKeyDoesNotExist.
 */
export function transferToGasKey(env: ActionEnv, action: TransferToGasKeyAction, result: ActionResult): void {
  const key = getAccessKey(env.su, env.accountId, action.publicKey);
  const info = key === undefined ? undefined : gasKeyInfoOf(key.permission);
  if (key === undefined || info === undefined) {
    result.fail({ GasKeyDoesNotExist: { account_id: env.accountId, public_key: formatPublicKey(action.publicKey) } });
    return;
  }
  setAccessKey(env.su, env.accountId, action.publicKey, { ...key, permission: withGasKeyBalance(key.permission, info.balance + action.deposit) });
}
