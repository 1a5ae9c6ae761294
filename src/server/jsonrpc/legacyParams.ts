import { isRpcMethodName } from "../../../generated/rpc/methods.js";
import { ParseError } from "../errors.js";
import { legacyQueryParams } from "./legacyQueryPath.js";
import { applyUnknownParamsRule } from "./unknownParams.js";

/**
 * nearcore still accepts positional params for a few methods (near-api-js sends some of them).
 * Each adapter turns a positional array into the by-name object the spec describes, so the
 * generated validators and handlers only ever see one form.
 */
const positional: Record<string, (args: unknown[]) => unknown> = {
  block: (args) => {
    if (args.length !== 1) throw tooMany(args.length, 1);
    return { block_id: args[0] };
  },
  query: legacyQueryParams,
  send_tx: sendParams,
  broadcast_tx_async: sendParams,
  broadcast_tx_commit: sendParams,
  tx: txStatusParams,
  EXPERIMENTAL_tx_status: txStatusParams,
  validators: (args) => {
    if (args.length !== 1) throw tooMany(args.length, 1);
    return args[0] === null ? {} : { block_id: args[0] };
  },
  EXPERIMENTAL_validators_ordered: (args) => {
    if (args.length > 1) throw tooMany(args.length, 1);
    return args.length === 0 ? {} : { block_id: args[0] };
  },
  EXPERIMENTAL_congestion_level: chunkParams,
  chunk: chunkParams,
  gas_price: (args) => {
    if (args.length > 1) throw tooMany(args.length, 1);
    return args.length === 0 ? {} : { block_id: args[0] };
  },
};

/** `[chunk_id]` or `[[block_id, shard_id]]` (nearcore's chunks.rs `parse_chunk_reference`). */
function chunkParams(args: unknown[]): unknown {
  if (args.length !== 1) throw tooMany(args.length, 1);
  const [only] = args;
  if (!Array.isArray(only)) return { chunk_id: only };
  if (only.length !== 2) throw new ParseError(`Failed parsing args: invalid length ${only.length}, expected a tuple of size 2`);
  return { block_id: only[0], shard_id: only[1] };
}

/** `[signed_tx_base64]`, the docs' form of the send methods (wait_until keeps its default). */
function sendParams(args: unknown[]): unknown {
  if (args.length > 1) throw new ParseError("Unable to parse send request: too many params passed");
  return { signed_tx_base64: args[0] };
}

/** `[tx_hash, sender_account_id]` or `[signed_tx_base64]`. */
function txStatusParams(args: unknown[]): unknown {
  if (args.length === 2) return { tx_hash: args[0], sender_account_id: args[1] };
  if (args.length === 1) return { signed_tx_base64: args[0] };
  throw new ParseError(`Failed parsing args: expected [tx_hash, sender_account_id] or [signed_tx_base64], got ${args.length} params`);
}

function tooMany(got: number, max: number): ParseError {
  return new ParseError(`Failed parsing args: expected ${max} positional param(s), got ${got}`);
}

/** Returns the by-name params object for `method`, converting legacy forms. */
export function normaliseParams(method: string, params: unknown): unknown {
  const byName = byNameParams(method, params);
  return isRpcMethodName(method) ? applyUnknownParamsRule(method, byName) : byName;
}

function byNameParams(method: string, params: unknown): unknown {
  if (params === undefined || params === null) return {};
  // nearcore's published schema names the latest epoch with the bare string "latest".
  if (method === "validators" && params === "latest") return {};
  if (!Array.isArray(params)) return params;
  const adapter = positional[method];
  if (adapter) return adapter(params);
  if (params.length === 0) return {};
  throw new ParseError(`Failed parsing args: ${method} takes named params (an object), not a positional array`);
}
