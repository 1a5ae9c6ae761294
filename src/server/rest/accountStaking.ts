import type { RestHandlers } from "../../../generated/rest/routes.js";
import { indexedHeight, type RestContext } from "./RestContext.js";
import { INVALID_ARGUMENT, validAccountId } from "./validArguments.js";
import { poolRowJson } from "./wireRows.js";

/** GET /v1/account/{account_id}/staking */
export const accountStaking: RestHandlers<RestContext>["accountStaking"] = (params, ctx) => {
  const accountId = validAccountId(params.account_id);
  if (accountId === undefined) return INVALID_ARGUMENT;
  return {
    status: 200,
    body: { account_id: accountId, block_height: indexedHeight(ctx), pools: ctx.index.poolRows(accountId).map(poolRowJson) },
  };
};
