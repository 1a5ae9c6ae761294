import { isValidAccountId } from "../../../chain/primitives/accountId.js";
import { InvalidAccountError, UnknownAccountError } from "../../errors.js";
import type { Block, RpcContext } from "../context.js";
import { blockPoint } from "./blockPoint.js";

/**
 * The account a query is about, at `block`: INVALID_ACCOUNT for an id that breaks the account
 * id rules, UNKNOWN_ACCOUNT for one that does not exist there.
 */
export function existingAccount(ctx: RpcContext, block: Block, accountId: string) {
  return found(ctx.chain.viewAccount(block, checkedAccountId(block, accountId)), block, accountId);
}

/** The storage usage of an account that must exist (view_state's cheap existence check). */
export function existingAccountStorageUsage(ctx: RpcContext, block: Block, accountId: string): number {
  return found(ctx.chain.accountStorageUsage(block, checkedAccountId(block, accountId)), block, accountId);
}

/** The id itself, or INVALID_ACCOUNT when it breaks the account id rules. */
export function checkedAccountId(block: Block, accountId: string): string {
  if (!isValidAccountId(accountId)) throw new InvalidAccountError(accountId, blockPoint(block));
  return accountId;
}

function found<T>(value: T | undefined, block: Block, accountId: string): T {
  if (value === undefined) throw new UnknownAccountError(accountId, blockPoint(block));
  return value;
}
