import type { RpcHandlers } from "../../../generated/rpc/methods.js";
import { block } from "./block.js";
import type { RpcContext } from "./context.js";
import { gasPrice } from "./gasPrice.js";
import { health } from "./health.js";
import { query } from "./query.js";
import { rpcDiscover } from "./rpcDiscover.js";
import { status } from "./status.js";

/** Every spec'd method and its handler; a method in the spec without one fails type-checking. */
export const rpcHandlers: RpcHandlers<RpcContext> = {
  query,
  block,
  status,
  gas_price: gasPrice,
  health,
  "rpc.discover": rpcDiscover,
};
