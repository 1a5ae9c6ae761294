import type { RestHandlers } from "../../../generated/rest/routes.js";
import { ACCOUNT_ROLE_FLAGS, type AccountRoleFlag } from "../../indexer/history/HistoryStore.js";
import { badRequest, bound, decodeResumeToken, encodeResumeToken, heightOutOfRange, historyOf, historyRequest } from "./historyRequests.js";
import type { RestContext } from "./RestContext.js";
import { thenMaybe } from "./thenMaybe.js";

/** FastNEAR's ACCOUNT_DEFAULT_LIMIT (also the maximum). */
export const ACCOUNT_TXS_LIMIT = 200;

/** POST /v0/account: one page of an account's transactions with the roles it played. */
export const historyAccount: RestHandlers<RestContext>["historyAccount"] = (_params, ctx, body) => {
  const request = historyRequest("historyAccount", body);
  if (!request.ok) return request.reply;
  const input = request.body;
  const outOfRange = heightOutOfRange(input.from_tx_block_height, input.to_tx_block_height);
  if (outOfRange !== undefined) return badRequest(outOfRange);
  const token = input.resume_token ?? undefined;
  const after = token === undefined ? undefined : decodeResumeToken(token);
  if (token !== undefined && after === undefined) return badRequest("resume_token must be a token from an earlier answer");
  const flags: Partial<Record<AccountRoleFlag, boolean>> = {};
  for (const flag of ACCOUNT_ROLE_FLAGS) {
    const value = input[flag];
    if (typeof value === "boolean") flags[flag] = value;
  }
  const limit = input.limit ?? ACCOUNT_TXS_LIMIT;
  const fromHeight = bound(input.from_tx_block_height);
  const toHeight = bound(input.to_tx_block_height);
  const query = {
    accountId: input.account_id,
    flags,
    desc: input.desc ?? true,
    limit,
    count: token === undefined,
    ...(fromHeight !== undefined && { fromHeight }),
    ...(toHeight !== undefined && { toHeight }),
    ...(after !== undefined && { after }),
  };
  return thenMaybe(historyOf(ctx).accountTxs(query), ({ rows, count }) => {
    const last = rows.length === limit ? rows[rows.length - 1] : undefined;
    return {
      status: 200 as const,
      body: {
        account_txs: [...rows],
        ...(last !== undefined && { resume_token: encodeResumeToken({ height: last.tx_block_height, index: last.tx_index }) }),
        ...(count !== undefined && { txs_count: count }),
      },
    };
  });
};
