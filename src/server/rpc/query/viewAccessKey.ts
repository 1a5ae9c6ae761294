import type { QueryErrorResult, ViewAccessKeyRequest, ViewAccessKeyResult } from "../../../../generated/rpc/types.js";
import { formatPublicKey, parsePublicKey, PublicKeyError } from "@shardkit/primitives/publicKey";
import { ParseError } from "../../errors.js";
import type { Block, RpcContext } from "../context.js";
import { accessKeyView } from "./accessKeyView.js";
import { blockPoint } from "./blockPoint.js";

/**
 * `query` / `view_access_key`. A key the account does not have is answered the legacy nearcore
 * way: HTTP 200 with a `result` holding an `error` string (clients match that text). Like
 * nearcore's state viewer it reads the key alone, so a missing account answers the same way.
 */
export function viewAccessKey(
  ctx: RpcContext,
  block: Block,
  params: ViewAccessKeyRequest,
): ViewAccessKeyResult | QueryErrorResult {
  const publicKey = canonicalPublicKey(params.public_key);
  const key = ctx.chain.at(block).accessKey(params.account_id, publicKey);
  if (key === undefined) {
    return { error: `access key ${publicKey} does not exist while viewing`, logs: [], ...blockPoint(block) };
  }
  return { ...accessKeyView(key), ...blockPoint(block) };
}

/** Parses and re-formats a public key, so lookups and messages use one spelling. */
export function canonicalPublicKey(text: string): string {
  try {
    return formatPublicKey(parsePublicKey(text));
  } catch (error) {
    if (error instanceof PublicKeyError) throw new ParseError(`Failed parsing args: invalid public_key: ${error.message}`);
    throw error;
  }
}
