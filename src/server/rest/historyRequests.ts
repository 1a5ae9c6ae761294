import { validateRestRequest, type RestBodyOperationId } from "../../../generated/rest/validators.js";
import type { RestRequestBody } from "../../../generated/rest/routes.js";
import type { HistoryReader, TxPosition } from "../../indexer/history/HistoryStore.js";
import { IndexUnavailableError } from "../../indexer/IndexUnavailableError.js";
import type { RestContext } from "./RestContext.js";

/** FastNEAR's MAX_BLOCK_HEIGHT: a height bound above it is a 400. */
export const MAX_HISTORY_BLOCK_HEIGHT = 1_000_000_000_000_000;

/** FastNEAR's 400 body. */
export function badRequest(message: string) {
  return { status: 400 as const, body: { error: "Bad request" as const, message } };
}

/** The body validated against the operation's request schema, or the 400 that says why not. */
export function historyRequest<Op extends RestBodyOperationId>(
  operationId: Op,
  body: unknown,
): { ok: true; body: RestRequestBody<Op> } | { ok: false; reply: ReturnType<typeof badRequest> } {
  const checked = validateRestRequest(operationId, body);
  return checked.ok ? checked : { ok: false, reply: badRequest(checked.problem) };
}

/** A height bound over FastNEAR's maximum, named for the 400. */
export function heightOutOfRange(...heights: (number | null | undefined)[]): string | undefined {
  return heights.some((h) => h !== null && h !== undefined && h > MAX_HISTORY_BLOCK_HEIGHT)
    ? `Block height exceeds maximum allowed value of ${MAX_HISTORY_BLOCK_HEIGHT}`
    : undefined;
}

/** FastNEAR's resume token: the decimal u128 `(tx_block_height << 32) | tx_index` of the last row returned. */
export function encodeResumeToken(position: TxPosition): string {
  return ((BigInt(position.height) << 32n) | BigInt(position.index)).toString();
}

/** The position a resume token names, or undefined when it is not a u128 decimal. */
export function decodeResumeToken(token: string): TxPosition | undefined {
  if (!/^(0|[1-9][0-9]{0,38})$/.test(token)) return undefined;
  const value = BigInt(token);
  if (value >= 1n << 128n) return undefined;
  const height = value >> 32n;
  return { height: height > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(height), index: Number(value & 0xffffffffn) };
}

/** A nullable JSON number bound as the store takes it (absent when null or missing). */
export function bound(value: number | null | undefined): number | undefined {
  return value === null || value === undefined ? undefined : Math.min(value, Number.MAX_SAFE_INTEGER);
}

/** The listener's history index; without one (a gateway for now) `/v0` answers 503. */
export function historyOf(ctx: RestContext): HistoryReader {
  if (ctx.history === undefined) throw new IndexUnavailableError("this listener has no transaction history index");
  return ctx.history;
}
