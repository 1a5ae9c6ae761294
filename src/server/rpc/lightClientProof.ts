import type { LightClientProofParams, LightClientProofResult } from "../../../generated/rpc/types.js";
import type { RpcContext } from "./context.js";
import { toLightClientProofError } from "./lightClientErrors.js";

/** `light_client_proof` / `EXPERIMENTAL_light_client_proof`: an outcome proven to a light client's head. */
export function lightClientProof(params: LightClientProofParams, ctx: RpcContext): LightClientProofResult {
  const [id, account] = params.type === "transaction" ? [params.transaction_hash, params.sender_id] : [params.receipt_id, params.receiver_id];
  try {
    return ctx.chain.lightClient.executionProof(id, account, params.light_client_head);
  } catch (e) {
    throw toLightClientProofError(e);
  }
}
