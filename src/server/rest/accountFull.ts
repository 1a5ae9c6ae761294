import type { RestHandlers } from "../../../generated/rest/routes.js";
import { indexedHeight, type RestContext } from "./RestContext.js";
import { INVALID_ARGUMENT, validAccountId } from "./validArguments.js";
import { accountStateJson, ftRowJson, nftRowJson, poolRowJson } from "./wireRows.js";

/** GET /v1/account/{account_id}/full */
export const accountFull: RestHandlers<RestContext>["accountFull"] = (params, ctx) => {
  const accountId = validAccountId(params.account_id);
  if (accountId === undefined) return INVALID_ARGUMENT;
  const { index } = ctx;
  return {
    status: 200,
    body: {
      account_id: accountId,
      block_height: indexedHeight(ctx),
      nfts: index.nftRows(accountId).map(nftRowJson),
      pools: index.poolRows(accountId).map(poolRowJson),
      state: accountStateJson(index.accountState(accountId)),
      tokens: index.ftRows(accountId).map(ftRowJson),
    },
  };
};
