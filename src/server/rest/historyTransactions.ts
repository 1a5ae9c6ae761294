import type { RestHandlers } from "../../../generated/rest/routes.js";
import { historyOf, historyRequest } from "./historyRequests.js";
import type { RestContext } from "./RestContext.js";
import { thenMaybe } from "./thenMaybe.js";
import { transactionJson } from "./historyWire.js";

/** POST /v0/transactions: every known transaction of up to 20 hashes, with all its receipts. */
export const historyTransactions: RestHandlers<RestContext>["historyTransactions"] = (_params, ctx, body) => {
  const request = historyRequest("historyTransactions", body);
  if (!request.ok) return request.reply;
  return thenMaybe(historyOf(ctx).transactions(request.body.tx_hashes), (records) => ({
    status: 200 as const,
    body: { transactions: records.map((record) => transactionJson(record.details)) },
  }));
};
