import { ShardkitError } from "@shardkit/primitives/ShardkitError";

/**
 * Why a light-client request failed, in nearcore's terms (RpcLightClientProofError /
 * RpcLightClientNextBlockError). `message` is nearcore's Display text of the underlying
 * chain error where the wire shows it.
 */
export type LightClientFailure =
  | { readonly kind: "UnknownBlock"; readonly message: string }
  | { readonly kind: "NotConfirmed"; readonly id: string }
  | { readonly kind: "UnknownTransactionOrReceipt"; readonly id: string }
  | { readonly kind: "Internal"; readonly message: string };

/** nearcore's cause name of each failure kind: the error's stable `code`. */
const causeNames = {
  UnknownBlock: "UNKNOWN_BLOCK",
  NotConfirmed: "NOT_CONFIRMED",
  UnknownTransactionOrReceipt: "UNKNOWN_TRANSACTION_OR_RECEIPT",
  Internal: "INTERNAL_ERROR",
} as const satisfies Record<LightClientFailure["kind"], string>;

export type LightClientErrorCode = (typeof causeNames)[LightClientFailure["kind"]];

export class LightClientError extends ShardkitError<LightClientErrorCode> {
  override readonly name = "LightClientError";
  constructor(readonly failure: LightClientFailure) {
    super(causeNames[failure.kind], failure.kind === "UnknownBlock" || failure.kind === "Internal" ? failure.message : `${failure.kind}: ${failure.id}`);
  }
}
