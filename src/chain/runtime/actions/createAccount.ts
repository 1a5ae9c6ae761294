import { ZERO_HASH } from "../../primitives/cryptoHash.js";
import type { ActionResult } from "../ActionResult.js";
import { SYSTEM_ACCOUNT } from "../receipt.js";
import type { ActionEnv } from "./ActionEnv.js";

/**
 * nearcore actions.rs `action_create_account`: a top-level id shorter than
 * `min_allowed_top_level_account_length` only by the registrar; a sub-account only by its
 * direct parent. The new account is empty (100 bytes of storage) and becomes the actor.
 */
export function createAccount(env: ActionEnv, result: ActionResult): void {
  const p = env.ctx.params;
  const id = env.accountId;
  const predecessorId = env.receipt.predecessorId;
  // nearcore `is_top_level`: no '.', and not the system account.
  if (!id.includes(".") && id !== SYSTEM_ACCOUNT) {
    if (id.length < p.minAllowedTopLevelAccountLength && predecessorId !== p.registrarAccountId) {
      result.fail({
        CreateAccountOnlyByRegistrar: { account_id: id, registrar_account_id: p.registrarAccountId, predecessor_id: predecessorId },
      });
      return;
    }
  } else if (!id.endsWith(`.${predecessorId}`) || id.slice(0, -predecessorId.length - 1).includes(".")) {
    result.fail({ CreateAccountNotAllowed: { account_id: id, predecessor_id: predecessorId } });
    return;
  }
  env.actorId = id;
  env.account = { amount: 0n, locked: 0n, codeHash: ZERO_HASH, storageUsage: p.storageNumBytesAccount };
}
