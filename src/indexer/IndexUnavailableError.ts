import { ShardkitError } from "@shardkit/primitives/ShardkitError";

/**
 * The index store cannot be read right now: its database is unreachable (down, restarting, cut
 * off) or holds no block yet. Not a bug: REST `/v1` answers 503 while it lasts, `/health` and
 * `/status` answer 200 and say so, and reads succeed again by themselves once it is back.
 */
export class IndexUnavailableError extends ShardkitError<"INDEX_UNAVAILABLE"> {
  override readonly name = "IndexUnavailableError";

  constructor(
    /** Why, short and without credentials (a driver message such as `connect ECONNREFUSED ...`). */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super("INDEX_UNAVAILABLE", "the account index is unavailable", { details: reason, ...options });
  }
}
