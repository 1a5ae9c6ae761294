import type { UnknownBlockData } from "../../../generated/rpc/types.js";
import { LightClientError } from "../../chain/blocks/LightClientError.js";
import { InternalError, RpcError } from "../errors.js";

/**
 * nearcore's RpcLightClientProofError on the wire: UNKNOWN_BLOCK with `info` {} and
 * `data` "DB Not Found Error: <store message>", the id causes with their Display text, the
 * rest INTERNAL_ERROR.
 */
export function toLightClientProofError(e: unknown): unknown {
  if (!(e instanceof LightClientError)) return e;
  const f = e.failure;
  switch (f.kind) {
    case "UnknownBlock":
      return new RpcError("UNKNOWN_BLOCK", {}, `DB Not Found Error: ${f.message}`);
    case "NotConfirmed":
      return new RpcError("NOT_CONFIRMED", { transaction_or_receipt_id: f.id }, `${f.id} has not been confirmed`);
    case "UnknownTransactionOrReceipt":
      return new RpcError("UNKNOWN_TRANSACTION_OR_RECEIPT", { transaction_or_receipt_id: f.id }, `${f.id} does not exist`);
    case "Internal":
      return new InternalError(f.message);
  }
}

/** nearcore's RpcLightClientNextBlockError: its `data` is the serialised cause, not text. */
export function toNextBlockError(e: unknown): unknown {
  if (!(e instanceof LightClientError)) return e;
  const f = e.failure;
  if (f.kind === "UnknownBlock") {
    const cause: UnknownBlockData = { name: "UNKNOWN_BLOCK", info: {} };
    return new RpcError("UNKNOWN_BLOCK", cause.info, cause);
  }
  // nearcore serialises the cause here too; shardkit's internal errors always carry text.
  return new InternalError(f.kind === "Internal" ? f.message : e.message);
}
