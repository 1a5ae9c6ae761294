import type { Account } from "../../primitives/account.js";
import type { ApplyContext } from "../ApplyContext.js";
import type { ActionReceiptOf } from "../receipt.js";
import type { StateUpdate } from "../StateUpdate.js";
import { must } from "../../must.js";

/**
 * The state actions of one receipt share: the receiver's account (kept in memory and written
 * once all actions succeeded, as nearcore does) and the actor, the account on whose behalf
 * administrative actions run (the predecessor, or the receiver after CreateAccount).
 */
export interface ActionEnv {
  readonly ctx: ApplyContext;
  readonly su: StateUpdate;
  readonly receipt: ActionReceiptOf;
  /** The receipt's receiver. */
  readonly accountId: string;
  account: Account | undefined;
  actorId: string;
  readonly promiseResults: readonly (Uint8Array | null)[];
}

/** The receiver's account, for an action checkAccountExistence has let through (it exists by then). */
export function receiverAccount(env: ActionEnv): Account {
  return must(env.account, "the receiver's account (checkAccountExistence found it)");
}
