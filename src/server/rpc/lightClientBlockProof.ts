import type { ExperimentalLightClientBlockProofParams, ExperimentalLightClientBlockProofResult } from "../../../generated/rpc/types.js";
import type { RpcContext } from "./context.js";
import { toLightClientProofError } from "./lightClientErrors.js";

/** `EXPERIMENTAL_light_client_block_proof`: a block's lite header and its path into the head's block merkle root. */
export function lightClientBlockProof(params: ExperimentalLightClientBlockProofParams, ctx: RpcContext): ExperimentalLightClientBlockProofResult {
  try {
    return ctx.chain.lightClient.blockProof(params.block_hash, params.light_client_head);
  } catch (e) {
    throw toLightClientProofError(e);
  }
}
