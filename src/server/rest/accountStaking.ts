import type { RestHandlers } from "../../../generated/rest/routes.js";
import type { RestContext } from "./RestContext.js";
import { thenMaybe } from "./thenMaybe.js";
import { INVALID_ARGUMENT, validAccountId } from "./validArguments.js";
import { poolRowJson } from "./wireRows.js";

/** GET /v1/account/{account_id}/staking */
export const accountStaking: RestHandlers<RestContext>["accountStaking"] = (params, ctx) => {
  const accountId = validAccountId(params.account_id);
  if (accountId === undefined) return INVALID_ARGUMENT;
  return thenMaybe(ctx.index.account(accountId), (rows) => ({
    status: 200 as const,
    body: { account_id: accountId, block_height: rows.height, pools: rows.pools.map(poolRowJson) },
  }));
};
