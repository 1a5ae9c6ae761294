/** An upstream call of a fork that got no usable answer (unreachable, timed out, 5xx after every retry). */
export class UpstreamUnavailableError extends Error {
  override readonly name = "UpstreamUnavailableError";
  /** The upstream may come back: block production tries again (BlockScheduler). */
  readonly retryable = true;
  constructor(
    /** What was asked, e.g. `query view_account alice.near`. */
    readonly call: string,
    readonly url: string,
    reason: string,
  ) {
    super(`fork upstream ${url} failed ${call}: ${reason}`);
  }
}

/** The upstream answered a call with a JSON-RPC error (an unknown account is one; callers decide). */
export class UpstreamRpcError extends Error {
  override readonly name = "UpstreamRpcError";
  /** The upstream may serve it later (a node catching up, a timeout): block production tries again. */
  readonly retryable = true;
  /** nearcore's `cause.name` (UNKNOWN_ACCOUNT, UNKNOWN_BLOCK, ...), or the error's `name`. */
  readonly causeName: string | undefined;
  constructor(
    readonly call: string,
    readonly url: string,
    readonly error: unknown,
  ) {
    const e = (error ?? {}) as { cause?: { name?: unknown; info?: unknown }; name?: unknown; message?: unknown; data?: unknown };
    const causeName = typeof e.cause?.name === "string" ? e.cause.name : typeof e.name === "string" ? e.name : undefined;
    const detail = typeof e.data === "string" ? e.data : typeof e.message === "string" ? e.message : JSON.stringify(error);
    super(`fork upstream ${url} refused ${call}: ${causeName ?? "error"}: ${detail}`);
    this.causeName = causeName;
  }
}
