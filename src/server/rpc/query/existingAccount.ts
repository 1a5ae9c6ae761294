import { UnknownAccountError } from "../../errors.js";
import type { Block, RpcContext } from "../context.js";
import { blockPoint } from "./blockPoint.js";

/**
 * The account a query is about, at `block`, or UNKNOWN_ACCOUNT when it does not exist there.
 * The id itself is already valid: the params schema refuses a malformed one (PARSE_ERROR).
 */
export function existingAccount(ctx: RpcContext, block: Block, accountId: string) {
  return found(ctx.chain.viewAccount(block, accountId), block, accountId);
}

/** The storage usage of an account that must exist (view_state's cheap existence check). */
export function existingAccountStorageUsage(ctx: RpcContext, block: Block, accountId: string): number {
  return found(ctx.chain.accountStorageUsage(block, accountId), block, accountId);
}

function found<T>(value: T | undefined, block: Block, accountId: string): T {
  if (value === undefined) throw new UnknownAccountError(accountId, blockPoint(block));
  return value;
}
