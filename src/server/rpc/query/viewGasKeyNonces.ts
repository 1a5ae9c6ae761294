import type { ViewGasKeyNoncesRequest, ViewGasKeyNoncesResult } from "../../../../generated/rpc/types.js";
import type { Block, RpcContext } from "../context.js";
import { UnknownGasKeyError } from "../views/viewErrors.js";
import { blockPoint } from "./blockPoint.js";
import { canonicalPublicKey } from "./viewAccessKey.js";

/**
 * `query` / `view_gas_key_nonces` (and `EXPERIMENTAL_view_gas_key_nonces` with its own
 * message): a gas key's nonces as u64 numbers, or UNKNOWN_GAS_KEY. Like nearcore's state
 * viewer it reads the key alone, so a missing account answers UNKNOWN_GAS_KEY too.
 */
export function viewGasKeyNonces(
  ctx: RpcContext,
  block: Block,
  params: Omit<ViewGasKeyNoncesRequest, "request_type">,
  message: (publicKey: string) => string = (pk) => `Gas key for public key ${pk} has never been observed on the node`,
): ViewGasKeyNoncesResult {
  const publicKey = canonicalPublicKey(params.public_key);
  const nonces = ctx.chain.at(block).gasKeyNonces(params.account_id, publicKey);
  if (nonces === undefined) throw new UnknownGasKeyError(publicKey, blockPoint(block), message(publicKey));
  return { nonces: nonces.map(Number), ...blockPoint(block) };
}
