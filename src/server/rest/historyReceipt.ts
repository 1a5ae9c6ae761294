import type { RestHandlers } from "../../../generated/rest/routes.js";
import { historyOf, historyRequest } from "./historyRequests.js";
import type { RestContext } from "./RestContext.js";
import { thenMaybe } from "./thenMaybe.js";
import { transactionJson } from "./historyWire.js";

/** POST /v0/receipt: a receipt's row and the transaction it belongs to. */
export const historyReceipt: RestHandlers<RestContext>["historyReceipt"] = (_params, ctx, body) => {
  const request = historyRequest("historyReceipt", body);
  if (!request.ok) return request.reply;
  return thenMaybe(historyOf(ctx).receipt(request.body.receipt_id), (found) => ({
    status: 200 as const,
    body: { receipt: found?.row ?? null, transaction: found?.transaction === undefined ? null : transactionJson(found.transaction.details) },
  }));
};
