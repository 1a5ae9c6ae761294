import type { GasPriceParams, GasPriceResult } from "../../../generated/rpc/types.js";
import { resolveBlockBody } from "./blockReference.js";
import type { RpcContext } from "./context.js";

/** `gas_price`: the gas price of a block, or of the head block when `block_id` is absent or null. */
export function gasPrice(params: GasPriceParams, ctx: RpcContext): GasPriceResult {
  const id = params.block_id ?? null;
  const block = id === null ? ctx.chain.head() : resolveBlockBody(ctx, { block_id: id });
  return { gas_price: block.view.header.gas_price };
}
