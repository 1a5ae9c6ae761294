import type { ExperimentalViewGasKeyNoncesParams, ExperimentalViewGasKeyNoncesResult } from "../../../generated/rpc/types.js";
import type { RpcContext } from "./context.js";
import { viewGasKeyNonces } from "./query/viewGasKeyNonces.js";
import { typedViewBlock } from "./views/typedViewBlock.js";

/**
 * `EXPERIMENTAL_view_gas_key_nonces`: `query` `view_gas_key_nonces` with nearcore's
 * `RpcViewGasKeyNoncesError` texts (its UnknownGasKey reads "does not exist while viewing").
 */
export function experimentalViewGasKeyNonces(
  params: ExperimentalViewGasKeyNoncesParams,
  ctx: RpcContext,
): ExperimentalViewGasKeyNoncesResult {
  const block = typedViewBlock(ctx, params);
  return viewGasKeyNonces(ctx, block, params, (pk) => `gas key for public key ${pk} does not exist while viewing`);
}
