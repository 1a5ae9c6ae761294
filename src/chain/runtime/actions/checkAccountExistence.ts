import type { Action } from "../../transaction/index.js";
import type { ActionErrorKindJson } from "../actionError.js";
import { isImplicitAccount } from "../implicitAccount.js";
import type { ActionEnv } from "./ActionEnv.js";

/**
 * nearcore actions.rs `check_account_existence`: CreateAccount needs a free (named) id; a
 * Transfer may create a NEAR- or ETH-implicit account when it is the receipt's only action and not a
 * refund; every other action needs the account.
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
    default:
      return env.account === undefined ? { AccountDoesNotExist: { account_id: id } } : undefined;
  }
}
