/** What a ShardkitError carries besides its code and short message. */
export interface ShardkitErrorOptions {
  /** The particulars (a driver's message, the offending value), kept apart from the short message. */
  details?: string;
  /** The error this one wraps: `walk()` follows it. */
  cause?: unknown;
}

/**
 * The base of shardkit's errors (after viem's BaseError): a `code` that stays the same across
 * releases (switch on it, not on the message), a `shortMessage` saying what went wrong,
 * optional `details`, and the standard `cause` when it wraps another error. `message` is the
 * short message, then ": " and the details when there are any.
 */
export class ShardkitError<C extends string = string> extends Error {
  override name = "ShardkitError";
  /** Stable, machine-readable: "INVALID_BASE58", "INDEX_UNAVAILABLE", a JSON-RPC cause name... */
  readonly code: C;
  readonly shortMessage: string;
  readonly details: string | undefined;

  constructor(code: C, shortMessage: string, options: ShardkitErrorOptions = {}) {
    const { details, cause } = options;
    super(details === undefined || details === "" ? shortMessage : `${shortMessage}: ${details}`, cause === undefined ? undefined : { cause });
    this.code = code;
    this.shortMessage = shortMessage;
    this.details = details;
  }

  /**
   * Follows the `cause` chain from this error. Without `match`: the innermost error. With it:
   * the first error on the chain (this one included) that `match` accepts, or null.
   */
  walk(): unknown;
  walk(match: (error: unknown) => boolean): unknown;
  walk(match?: (error: unknown) => boolean): unknown {
    const seen = new Set<unknown>();
    let error: unknown = this;
    for (;;) {
      if (match?.(error)) return error;
      seen.add(error);
      const next = error instanceof Error ? error.cause : undefined;
      if (next === undefined || seen.has(next)) return match === undefined ? error : null;
      error = next;
    }
  }
}
