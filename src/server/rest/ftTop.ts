import type { RestHandlers } from "../../../generated/rest/routes.js";
import { indexedHeight, type RestContext } from "./RestContext.js";
import { INVALID_ARGUMENT, validAccountId } from "./validArguments.js";

/** FastNEAR's cap on `/top` (its ZRANGE LIMIT). */
export const FT_TOP_LIMIT = 100;

/** GET /v1/ft/{token_id}/top */
export const ftTop: RestHandlers<RestContext>["ftTop"] = (params, ctx) => {
  const tokenId = validAccountId(params.token_id);
  if (tokenId === undefined) return INVALID_ARGUMENT;
  return {
    status: 200,
    body: {
      accounts: ctx.index.ftTop(tokenId, FT_TOP_LIMIT).map((h) => ({ account_id: h.accountId, balance: h.balance })),
      block_height: indexedHeight(ctx),
      token_id: tokenId,
    },
  };
};
