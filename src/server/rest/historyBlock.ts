import type { RestHandlers } from "../../../generated/rest/routes.js";
import { historyOf, historyRequest } from "./historyRequests.js";
import type { RestContext } from "./RestContext.js";
import { thenMaybe } from "./thenMaybe.js";

/** POST /v0/block: a block row by height or hash, with its transactions and receipts when asked. */
export const historyBlock: RestHandlers<RestContext>["historyBlock"] = (_params, ctx, body) => {
  const request = historyRequest("historyBlock", body);
  if (!request.ok) return request.reply;
  const { block_id, with_transactions, with_receipts } = request.body;
  return thenMaybe(historyOf(ctx).block(block_id), (found) => {
    if (found === undefined) return { status: 200 as const, body: { block: null } };
    return {
      status: 200 as const,
      body: {
        block: found.row,
        ...(with_receipts === true && { block_receipts: [...found.receipts] }),
        ...(with_transactions === true && { block_txs: [...found.txs] }),
      },
    };
  });
};
