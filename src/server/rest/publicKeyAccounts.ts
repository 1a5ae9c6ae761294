import type { RestHandlers } from "../../../generated/rest/routes.js";
import { indexedHeight, type RestContext } from "./RestContext.js";
import { INVALID_ARGUMENT, normalizedPublicKey } from "./validArguments.js";

/** GET /v1/public_key/{public_key}: accounts holding the key with full access. */
export const publicKeyAccounts: RestHandlers<RestContext>["publicKeyAccounts"] = (params, ctx) => {
  const publicKey = normalizedPublicKey(params.public_key);
  if (publicKey === undefined) return INVALID_ARGUMENT;
  return {
    status: 200,
    body: { account_ids: ctx.index.accountsByKey(publicKey, true), block_height: indexedHeight(ctx), public_key: publicKey },
  };
};
