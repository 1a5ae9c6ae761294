import { isRpcErrorCauseName } from "../../../generated/rpc/errors.js";
import { RelayedResult } from "../../../generated/rpc/methods.js";
import type { BlockId, BlockReference } from "../../../generated/rpc/types.js";
import { InternalError, RelayedRpcError } from "../errors.js";
import { isJsonObject } from "@shardkit/primitives/isJsonObject";
import type { RpcContext } from "./context.js";
import { fetchFailureReason } from "../../chain/fork/fetchFailureReason.js";

/** Time allowed to one attempt of a forwarded call, and the attempts (network failures, 408, 429, 5xx). */
const FORWARD_TIMEOUT_MS = 15_000;
const FORWARD_ATTEMPTS = 3;

/**
 * The block id a fork leaves to its upstream: a height at or below the fork block, or a hash
 * the fork does not know (the fork block's own hash included: its genesis stands for it).
 * Undefined when the chain is no fork or the block is local (finalities are always local).
 */
export function upstreamBlockId(ctx: RpcContext, reference: BlockReference | { block_id: BlockId }): BlockId | undefined {
  const fork = ctx.chain.fork;
  if (fork === undefined || !("block_id" in reference)) return undefined;
  const id = reference.block_id;
  if (typeof id === "number") return id <= fork.height ? id : undefined;
  return id === fork.blockHash || ctx.chain.blockByHash(id) === undefined ? id : undefined;
}

/**
 * Asks the fork's upstream (its archival URL when given, with the fork's API key) and answers
 * with what it said: the result, or its JSON-RPC error as it sent it (causes this server does
 * not know become INTERNAL_ERROR with the upstream's text). An upstream that cannot answer
 * after FORWARD_ATTEMPTS is an INTERNAL_ERROR naming the call.
 */
export async function forwardToUpstream(ctx: RpcContext, method: string, params: unknown): Promise<RelayedResult> {
  const fork = ctx.chain.fork;
  if (fork === undefined) throw new InternalError(`${method} was to be forwarded, but the chain is no fork`);
  const url = fork.archivalUrl ?? fork.url;
  let body: Record<string, unknown> | undefined;
  let reason = "";
  for (let attempt = 1; attempt <= FORWARD_ATTEMPTS && body === undefined; attempt++) {
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...(ctx.chain.forkApiKey === undefined ? {} : { authorization: `Bearer ${ctx.chain.forkApiKey}` }) },
        body: JSON.stringify({ jsonrpc: "2.0", id: "shardkit-fork", method, params }),
        signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      });
      const text = await response.text();
      if (response.status === 408 || response.status === 429 || response.status >= 500) {
        reason = `HTTP ${response.status}`;
        continue;
      }
      const parsed: unknown = JSON.parse(text);
      if (!isJsonObject(parsed)) throw new Error(`HTTP ${response.status}, not a JSON-RPC answer: ${text.slice(0, 200)}`);
      body = parsed;
    } catch (e) {
      reason = fetchFailureReason(e);
    }
  }
  if (body === undefined) throw new InternalError(`fork upstream ${url} failed ${method}: ${reason} after ${FORWARD_ATTEMPTS} attempts`);
  const error = body.error;
  if (error === undefined) return new RelayedResult(body.result);
  const cause = isJsonObject(error) && isJsonObject(error.cause) ? error.cause : undefined;
  if (isJsonObject(error) && cause !== undefined && typeof cause.name === "string" && isRpcErrorCauseName(cause.name)) {
    throw new RelayedRpcError(cause.name, cause.info, error.data);
  }
  throw new InternalError(`fork upstream ${url} refused ${method}: ${JSON.stringify(error)}`);
}

