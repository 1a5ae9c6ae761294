import type { RestHandlers } from "../../../generated/rest/routes.js";
import type { RestContext } from "./RestContext.js";
import { thenMaybe } from "./thenMaybe.js";
import { INVALID_ARGUMENT, validAccountId } from "./validArguments.js";

/** FastNEAR's cap on `/top` (its ZRANGE LIMIT). */
export const FT_TOP_LIMIT = 100;

/** GET /v1/ft/{token_id}/top */
export const ftTop: RestHandlers<RestContext>["ftTop"] = (params, ctx) => {
  const tokenId = validAccountId(params.token_id);
  if (tokenId === undefined) return INVALID_ARGUMENT;
  return thenMaybe(ctx.index.ftTop(tokenId, FT_TOP_LIMIT), (top) => ({
    status: 200 as const,
    body: {
      accounts: top.holders.map((h) => ({ account_id: h.accountId, balance: h.balance })),
      block_height: top.height,
      token_id: tokenId,
    },
  }));
};
