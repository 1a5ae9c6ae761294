import { UnknownAccountError } from "../../errors.js";
import type { Block, RpcContext } from "../context.js";
import { blockPoint } from "./blockPoint.js";

/**
 * The account a query is about, at `block`, or UNKNOWN_ACCOUNT when it does not exist there.
 * The id itself is already valid: the params schema refuses a malformed one (PARSE_ERROR).
 */
export function existingAccount(ctx: RpcContext, block: Block, accountId: string) {
  return found(ctx.chain.at(block).account(accountId), block, accountId);
}

function found<T>(value: T | undefined, block: Block, accountId: string): T {
  if (value === undefined) throw new UnknownAccountError(accountId, blockPoint(block));
  return value;
}
