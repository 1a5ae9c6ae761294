import type { ValidatorsParams, ValidatorsResult } from "../../../generated/rpc/types.js";
import type { Block } from "../../chain/node.js";
import { epochById, epochOfBlock } from "../../chain/views/epochs.js";
import { endsEpoch, epochValidatorInfo } from "../../chain/views/validatorInfo.js";
import { UnknownEpochError, ValidatorInfoUnavailableError } from "../errors.js";
import type { RpcContext } from "./context.js";

/**
 * `validators`: the validators of an epoch, resolved as nearcore's view client does. The
 * head's epoch (named by nothing or by its id) is counted up to the head; a finished epoch,
 * named by its id or by its last block, over all its blocks.
 */
export function validators(params: ValidatorsParams, ctx: RpcContext): ValidatorsResult {
  const { chain } = ctx;
  const head = chain.head();
  const current = epochOfBlock(chain, head);
  if ("epoch_id" in params) {
    const epoch = epochById(chain, params.epoch_id);
    if (epoch === undefined || epoch.index > current.index) throw new UnknownEpochError();
    return epochValidatorInfo(chain, epoch, epoch.index === current.index ? head : chain.blockByHeight(epoch.lastHeight)!);
  }
  if ("block_id" in params) {
    const id = params.block_id;
    const block: Block | undefined = typeof id === "number" ? chain.blockByHeight(id) : chain.blockByHash(id);
    if (block === undefined) throw new UnknownEpochError();
    const ends = endsEpoch(chain, block);
    if (ends === undefined) throw new UnknownEpochError();
    if (!ends) throw new ValidatorInfoUnavailableError();
    return epochValidatorInfo(chain, epochOfBlock(chain, block), block);
  }
  return epochValidatorInfo(chain, current, head);
}
