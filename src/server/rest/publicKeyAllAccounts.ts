import type { RestHandlers } from "../../../generated/rest/routes.js";
import type { RestContext } from "./RestContext.js";
import { thenMaybe } from "./thenMaybe.js";
import { INVALID_ARGUMENT, normalizedPublicKey } from "./validArguments.js";

/** GET /v1/public_key/{public_key}/all: accounts holding the key with any permission. */
export const publicKeyAllAccounts: RestHandlers<RestContext>["publicKeyAllAccounts"] = (params, ctx) => {
  const publicKey = normalizedPublicKey(params.public_key);
  if (publicKey === undefined) return INVALID_ARGUMENT;
  return thenMaybe(ctx.index.accountsByKey(publicKey, false), (found) => ({
    status: 200 as const,
    body: { account_ids: [...found.accountIds], block_height: found.height, public_key: publicKey },
  }));
};
