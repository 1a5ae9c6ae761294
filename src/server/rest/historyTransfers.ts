import type { RestHandlers } from "../../../generated/rest/routes.js";
import type { TransfersQuery } from "../../indexer/history/HistoryStore.js";
import { badRequest, historyOf, historyRequest } from "./historyRequests.js";
import type { RestContext } from "./RestContext.js";
import { thenMaybe } from "./thenMaybe.js";

/** FastNEAR's transfers-api MAX_TRANSFERS_LIMIT (also the default). */
export const TRANSFERS_LIMIT = 100;

/** The transfers-api resume token: the decimal u128 `(block_timestamp << 32) | transfer_index` of the last row. */
export function encodeTransfersToken(timestampNs: bigint, transferIndex: number): string {
  return ((timestampNs << 32n) | BigInt(transferIndex)).toString();
}

/** POST /v0/transfers: one page of an account's NEAR and NEP-141 transfers. */
export const historyTransfers: RestHandlers<RestContext>["historyTransfers"] = (_params, ctx, body) => {
  const request = historyRequest("historyTransfers", body);
  if (!request.ok) return request.reply;
  const input = request.body;
  const token = input.resume_token ?? undefined;
  let after: TransfersQuery["after"];
  if (token !== undefined) {
    const value = BigInt(token);
    if (value >= 1n << 128n) return badRequest("resume_token must be a token from an earlier answer");
    after = { timestamp: value >> 32n, index: Number(value & 0xffffffffn) };
  }
  const limit = input.limit ?? TRANSFERS_LIMIT;
  const ms = (value: number | null | undefined) => (value === null || value === undefined ? undefined : BigInt(value) * 1_000_000n);
  const fromTimestamp = ms(input.from_timestamp_ms);
  const toTimestamp = ms(input.to_timestamp_ms);
  const query: TransfersQuery = {
    accountId: input.account_id,
    desc: input.desc ?? false,
    limit,
    ...(after !== undefined && { after }),
    ...(fromTimestamp !== undefined && { fromTimestamp }),
    ...(toTimestamp !== undefined && { toTimestamp }),
    ...(input.direction !== null && input.direction !== undefined && { direction: input.direction }),
    ...(input.asset_id !== null && input.asset_id !== undefined && { assetId: input.asset_id }),
    ...(input.min_amount !== null && input.min_amount !== undefined && { minAmount: BigInt(input.min_amount) }),
    ...(input.ignore_system === true && { ignoreSystem: true }),
  };
  return thenMaybe(historyOf(ctx).accountTransfers(query), (rows) => {
    const last = rows.length === limit ? rows[rows.length - 1] : undefined;
    return {
      status: 200 as const,
      body: {
        transfers: [...rows],
        resume_token: last === undefined ? null : encodeTransfersToken(BigInt(last.block_timestamp), last.transfer_index),
      },
    };
  });
};
