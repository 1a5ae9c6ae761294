import type { Action } from "../../transaction/index.js";
import type { ActionErrorKindJson } from "../actionError.js";
import { isImplicitAccount } from "../implicitAccount.js";
import type { ActionEnv } from "./ActionEnv.js";

/**
 * nearcore actions.rs `check_account_existence`: CreateAccount needs a free (named) id; a
 * Transfer may create a NEAR-implicit, ETH-implicit or NEAR-deterministic account when it is
 * the receipt's only action and not a refund; a DeterministicStateInit needs nothing (it
 * creates the account or leaves an existing one be); every other action needs the account.
 */
export function checkAccountExistence(env: ActionEnv, action: Action, implicitCreationEligible: boolean): ActionErrorKindJson | undefined {
  const id = env.accountId;
  switch (action.type) {
    case "CreateAccount":
      if (env.account !== undefined) return { AccountAlreadyExists: { account_id: id } };
      if (isImplicitAccount(id)) return { OnlyImplicitAccountCreationAllowed: { account_id: id } };
      return undefined;
    case "Transfer":
      if (env.account === undefined && !(implicitCreationEligible && isImplicitAccount(id))) {
        return { AccountDoesNotExist: { account_id: id } };
      }
      return undefined;
    case "DeterministicStateInit":
      return undefined;
    default:
      return env.account === undefined ? { AccountDoesNotExist: { account_id: id } } : undefined;
  }
}
