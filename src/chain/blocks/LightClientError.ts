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

export class LightClientError extends Error {
  override readonly name = "LightClientError";
  constructor(readonly failure: LightClientFailure) {
    super(failure.kind === "UnknownBlock" || failure.kind === "Internal" ? failure.message : `${failure.kind}: ${failure.id}`);
  }
}
