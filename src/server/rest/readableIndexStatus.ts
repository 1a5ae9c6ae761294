import type { Awaitable, IndexStatus } from "../../indexer/IndexStore.js";
import { IndexUnavailableError } from "../../indexer/IndexUnavailableError.js";
import type { RestContext } from "./RestContext.js";

/** An index status with a block to report, as /status and /health read it. */
export type AppliedIndexStatus = IndexStatus & { readonly height: number };

/**
 * The index's status, or why it cannot be read: an unreachable database, or no block applied yet
 * (a fresh shared index). Any other failure stays a failure (a bug answers 500).
 */
export function readableIndexStatus(ctx: RestContext): Awaitable<AppliedIndexStatus | IndexUnavailableError> {
  const settle = ({ height, ...rest }: IndexStatus): AppliedIndexStatus | IndexUnavailableError =>
    height === null ? new IndexUnavailableError("the index holds no block yet") : { ...rest, height };
  const unavailable = (error: unknown): IndexUnavailableError => {
    if (error instanceof IndexUnavailableError) return error;
    throw error;
  };
  let status: Awaitable<IndexStatus>;
  try {
    status = ctx.index.status();
  } catch (error) {
    return unavailable(error);
  }
  return status instanceof Promise ? status.then(settle, unavailable) : settle(status);
}
