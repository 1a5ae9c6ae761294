import type { ViewStateRequest, ViewStateResult } from "../../../../generated/rpc/types.js";
import { base64Encode } from "../../../chain/primitives/base64.js";
import { ContractStateTooLargeError, STATE_VIEW_SIZE_LIMIT } from "../../../chain/state/StateView.js";
import { UnknownAccountError as ChainUnknownAccountError } from "../../../chain/vm/UnknownAccountError.js";
import { ParseError, TooLargeContractStateError, UnknownAccountError } from "../../errors.js";
import type { Block, RpcContext } from "../context.js";
import { base64Param } from "./base64Param.js";
import { blockPoint } from "./blockPoint.js";

/**
 * `query` / `view_state`, with nearcore 2.13 paging: `after_key_base64` (exclusive, inside the
 * prefix) and `limit` make the request paginated, which skips the size gate and caps pages at
 * 10,000 entries (whatever uint32 `limit` asks for) and about 50,000 bytes; `last_key` appears
 * only when a page was cut short. Both fields are nearcore `Option`s: `null` means not set.
 * The chain's state view checks the account and the size gate (see StateView.contractState).
 */
export function viewState(ctx: RpcContext, block: Block, params: ViewStateRequest): ViewStateResult {
  const prefix = base64Param("prefix_base64", params.prefix_base64);
  const afterKeyText = params.after_key_base64 ?? undefined;
  const limit = params.limit ?? undefined;
  const afterKey = afterKeyText === undefined ? undefined : base64Param("after_key_base64", afterKeyText);
  if (afterKey !== undefined && !startsWith(afterKey, prefix)) {
    throw new ParseError("Failed parsing args: after_key_base64 must start with prefix_base64");
  }
  let page;
  try {
    page = ctx.chain.at(block).contractState(params.account_id, {
      prefix,
      ...(afterKey !== undefined && { afterKey }),
      ...(limit !== undefined && { limit }),
      includeProof: params.include_proof === true,
      sizeLimit: STATE_VIEW_SIZE_LIMIT,
    });
  } catch (error) {
    if (error instanceof ChainUnknownAccountError) throw new UnknownAccountError(params.account_id, blockPoint(block));
    if (error instanceof ContractStateTooLargeError) throw new TooLargeContractStateError(params.account_id, blockPoint(block));
    throw error;
  }
  const result: ViewStateResult = {
    values: page.values.map(({ key, value }) => ({ key: base64Encode(key), value: base64Encode(value) })),
    ...blockPoint(block),
  };
  if (page.lastKey !== undefined) result.last_key = base64Encode(page.lastKey);
  if (page.proof !== undefined && page.proof.length > 0) result.proof = page.proof.map(base64Encode);
  return result;
}

function startsWith(key: Uint8Array, prefix: Uint8Array): boolean {
  if (key.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (key[i] !== prefix[i]) return false;
  return true;
}
