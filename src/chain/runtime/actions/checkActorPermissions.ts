import type { Action } from "../../transaction/index.js";
import type { ActionErrorKindJson } from "../actionError.js";
import type { ActionEnv } from "./ActionEnv.js";

/**
 * nearcore actions.rs `check_actor_permissions`: administrative actions run only on the
 * actor's own account; a staking account cannot be deleted.
 */
export function checkActorPermissions(env: ActionEnv, action: Action): ActionErrorKindJson | undefined {
  switch (action.type) {
    case "DeployContract":
    case "Stake":
    case "AddKey":
    case "DeleteKey":
    case "DeployGlobalContract":
    case "UseGlobalContract":
    case "WithdrawFromGasKey":
      return env.actorId === env.accountId ? undefined : { ActorNoPermission: { account_id: env.accountId, actor_id: env.actorId } };
    case "DeleteAccount":
      if (env.actorId !== env.accountId) return { ActorNoPermission: { account_id: env.accountId, actor_id: env.actorId } };
      if (env.account !== undefined && env.account.locked > 0n) return { DeleteAccountStaking: { account_id: env.accountId } };
      return undefined;
    default:
      return undefined;
  }
}
