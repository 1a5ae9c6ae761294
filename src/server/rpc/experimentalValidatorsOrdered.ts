import type { ExperimentalValidatorsOrderedParams, ExperimentalValidatorsOrderedResult } from "../../../generated/rpc/types.js";
import { epochOfBlock } from "../../chain/views/epochs.js";
import { epochBlockProducers } from "../../chain/views/validatorInfo.js";
import { UnknownEpochError } from "../errors.js";
import type { RpcContext } from "./context.js";

/** `EXPERIMENTAL_validators_ordered`: the block producers of a block's epoch (the head's by default). */
export function experimentalValidatorsOrdered(
  params: ExperimentalValidatorsOrderedParams,
  ctx: RpcContext,
): ExperimentalValidatorsOrderedResult {
  const { chain } = ctx;
  const id = params.block_id ?? null;
  const block = id === null ? chain.head() : typeof id === "number" ? chain.blockByHeight(id) : chain.blockByHash(id);
  if (block === undefined) throw new UnknownEpochError();
  return epochBlockProducers(chain, epochOfBlock(chain, block));
}
