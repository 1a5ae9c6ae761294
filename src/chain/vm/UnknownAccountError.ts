import { ShardkitError } from "@shardkit/primitives/ShardkitError";

/** A view call or state view of an account that does not exist (nearcore `AccountDoesNotExist`, RPC UNKNOWN_ACCOUNT). */
export class UnknownAccountError extends ShardkitError<"UNKNOWN_ACCOUNT"> {
  override readonly name = "UnknownAccountError";
  constructor(readonly accountId: string) {
    super("UNKNOWN_ACCOUNT", `account ${accountId} does not exist while viewing`);
  }
}
