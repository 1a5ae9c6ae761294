import { rpcErrorCauses, type RpcErrorCauseName } from "../../../generated/rpc/errors.js";
import type { BlockId, BlockReference } from "../../../generated/rpc/types.js";
import { InternalError, RpcError } from "../errors.js";
import type { RpcContext } from "./context.js";

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
export async function forwardToUpstream(ctx: RpcContext, method: string, params: unknown): Promise<never | unknown> {
  const fork = ctx.chain.fork!;
  const url = fork.archivalUrl ?? fork.url;
  type Answer = { result?: unknown; error?: { cause?: { name?: string; info?: unknown }; data?: unknown; message?: string } };
  let body: Answer | undefined;
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
      if (typeof parsed !== "object" || parsed === null) throw new Error(`HTTP ${response.status}, not a JSON-RPC answer: ${text.slice(0, 200)}`);
      body = parsed as Answer;
    } catch (e) {
      const cause = (e as { cause?: { code?: string } }).cause;
      reason = cause?.code ?? (e as Error).message;
    }
  }
  if (body === undefined) throw new InternalError(`fork upstream ${url} failed ${method}: ${reason} after ${FORWARD_ATTEMPTS} attempts`);
  if (body.error === undefined) return body.result;
  const causeName = body.error.cause?.name;
  if (causeName !== undefined && causeName in rpcErrorCauses) {
    throw new RpcError(causeName as RpcErrorCauseName, body.error.cause?.info, body.error.data);
  }
  throw new InternalError(`fork upstream ${url} refused ${method}: ${JSON.stringify(body.error)}`);
}
