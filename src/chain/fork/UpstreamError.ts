import { ShardkitError } from "@shardkit/primitives/ShardkitError";

/** An upstream call of a fork that got no usable answer (unreachable, timed out, 5xx after every retry). */
export class UpstreamUnavailableError extends ShardkitError<"UPSTREAM_UNAVAILABLE"> {
  override readonly name = "UpstreamUnavailableError";
  /** The upstream may come back: block production tries again (BlockScheduler). */
  readonly retryable = true;
  constructor(
    /** What was asked, e.g. `query view_account alice.near`. */
    readonly call: string,
    readonly url: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super("UPSTREAM_UNAVAILABLE", `fork upstream ${url} failed ${call}`, { details: reason, ...options });
  }
}

/** The upstream answered a call with a JSON-RPC error (an unknown account is one; callers decide). */
export class UpstreamRpcError extends ShardkitError<"UPSTREAM_RPC_ERROR"> {
  override readonly name = "UpstreamRpcError";
  /** The upstream may serve it later (a node catching up, a timeout): block production tries again. */
  readonly retryable = true;
  /** nearcore's `cause.name` (UNKNOWN_ACCOUNT, UNKNOWN_BLOCK, ...), or the error's `name`. */
  readonly causeName: string | undefined;
  constructor(
    readonly call: string,
    readonly url: string,
    /** The JSON-RPC `error` object as the upstream sent it. */
    readonly error: unknown,
  ) {
    const causeName = stringField(field(error, "cause"), "name") ?? stringField(error, "name");
    const detail = stringField(error, "data") ?? stringField(error, "message") ?? JSON.stringify(error);
    super("UPSTREAM_RPC_ERROR", `fork upstream ${url} refused ${call}`, { details: `${causeName ?? "error"}: ${detail}` });
    this.causeName = causeName;
  }
}

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? Reflect.get(value, key) : undefined;
}

function stringField(value: unknown, key: string): string | undefined {
  const v = field(value, key);
  return typeof v === "string" ? v : undefined;
}
