import type { HealthParams, HealthResult } from "../../../generated/rpc/types.js";
import type { RpcContext } from "./context.js";

/** `health`: `null` while the node serves (a simulated node is always in sync). */
export function health(_params: HealthParams, _ctx: RpcContext): HealthResult {
  return null;
}
