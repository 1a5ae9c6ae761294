import { isValidAccountId } from "../../../chain/primitives/accountId.js";
import { InvalidAccountError, UnknownAccountError } from "../../errors.js";
import type { Block, RpcContext } from "../context.js";
import { blockPoint } from "./blockPoint.js";

/**
 * The account a query is about, at `block`: INVALID_ACCOUNT for an id that breaks the account
 * id rules, UNKNOWN_ACCOUNT for one that does not exist there.
 */
export function existingAccount(ctx: RpcContext, block: Block, accountId: string) {
  if (!isValidAccountId(accountId)) throw new InvalidAccountError(accountId, blockPoint(block));
  const account = ctx.chain.viewAccount(block, accountId);
  if (account === undefined) throw new UnknownAccountError(accountId, blockPoint(block));
  return account;
}
