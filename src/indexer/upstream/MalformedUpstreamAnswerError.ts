import { ShardkitError } from "@shardkit/primitives/ShardkitError";

/**
 * An upstream answered a call with a result that does not match the spec's result schema for
 * the method (a proxy's page, another API, a node version whose views differ). The follower
 * logs it and retries: nothing of the block is written.
 */
export class MalformedUpstreamAnswerError extends ShardkitError<"MALFORMED_UPSTREAM_ANSWER"> {
  override readonly name = "MalformedUpstreamAnswerError";

  constructor(
    /** The JSON-RPC method asked. */
    readonly method: string,
    /** What does not match, as the validator says it (`/header/height must be integer`). */
    reason: string,
  ) {
    super("MALFORMED_UPSTREAM_ANSWER", `the upstream's ${method} result does not match the spec`, { details: reason });
  }
}
