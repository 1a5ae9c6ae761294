import type { ErrorObject } from "ajv";
import { httpTransport, RpcHttpError, RpcResponseError } from "@shardkit/client/jsonrpc";
import type { RpcMethodName } from "../../../generated/rpc/methods.js";
import { validateResult, type RpcParams, type RpcResult } from "../../../generated/rpc/validators.js";
import { isJsonObject } from "@shardkit/primitives/isJsonObject";
import { MalformedUpstreamAnswerError } from "./MalformedUpstreamAnswerError.js";

/** One JSON-RPC call to the upstream nearcore node, resolving with `result`. */
export type UpstreamCall = (method: string, params: unknown) => Promise<unknown>;

/** nearcore's error causes that say the node is busy or broken, not that the request is wrong. */
const TRANSIENT_CAUSES = new Set(["TIMEOUT_ERROR", "INTERNAL_ERROR", "NO_SYNCED_BLOCKS", "NOT_SYNCED_YET"]);

/**
 * True when a failed call may succeed if tried again: no answer (connection refused, reset,
 * timeout), an answer that is not JSON-RPC (a proxy's 502), or a transient nearcore cause.
 */
export function isTransientUpstreamError(error: unknown): boolean {
  if (error instanceof RpcResponseError) return TRANSIENT_CAUSES.has(error.causeName);
  return error instanceof RpcHttpError || error instanceof TypeError || (error instanceof Error && error.name === "TimeoutError");
}

/** Unknown fields dropped from one answer at most (a newer nearcore adds a few per view). */
const MAX_UNKNOWN_FIELDS = 1_000;

/**
 * One call whose result is checked against the spec's result schema of `method` (the generated
 * validator): the caller gets the method's result type, or a MalformedUpstreamAnswerError naming
 * what does not match. Fields the spec does not know are dropped, not refused: the spec's views
 * are closed (our own answers must not grow fields), but a newer nearcore adds fields to its
 * views, and a follower that refused them would stop at its first block.
 */
export async function callUpstream<M extends RpcMethodName>(call: UpstreamCall, method: M, params: RpcParams<M>): Promise<RpcResult<M>> {
  const result = await call(method, params);
  const validate = validateResult[method];
  for (let dropped = 0; !validate(result); dropped++) {
    if (dropped >= MAX_UNKNOWN_FIELDS || !dropUnknownField(result, validate.errors?.[0])) {
      throw new MalformedUpstreamAnswerError(method, describeErrors(validate.errors));
    }
  }
  return result;
}

/** Deletes the field an additionalProperties / unevaluatedProperties error names; false for any other error. */
function dropUnknownField(root: unknown, error: ErrorObject | undefined): boolean {
  const name = error?.keyword === "additionalProperties" ? error.params["additionalProperty"] : error?.keyword === "unevaluatedProperties" ? error.params["unevaluatedProperty"] : undefined;
  if (error === undefined || typeof name !== "string") return false;
  let node = root;
  for (const segment of error.instancePath.split("/").slice(1)) {
    const key = segment.replaceAll("~1", "/").replaceAll("~0", "~");
    node = Array.isArray(node) ? node[Number(key)] : isJsonObject(node) ? node[key] : undefined;
  }
  if (!isJsonObject(node) || !(name in node)) return false;
  delete node[name];
  return true;
}

function describeErrors(errors: readonly ErrorObject[] | null | undefined): string {
  const first = errors?.[0];
  return first === undefined ? "no detail" : `${first.instancePath || "/"} ${first.message ?? first.keyword}`;
}

/**
 * Calls upstream nodes over HTTP (keep-alive, a per-call timeout). With several nodes, a call
 * that fails transiently is tried on the next one, and the next call starts where the last
 * one succeeded.
 */
export function upstreamRpc(urls: string | readonly string[], timeoutMs = 10_000): UpstreamCall {
  const transports = (typeof urls === "string" ? [urls] : urls).map((url) =>
    httpTransport({ url, fetch: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) }) }),
  );
  if (transports.length === 0) throw new Error("no upstream URL to follow");
  let current = 0;
  return async (method, params) => {
    for (let tried = 1; ; tried++) {
      const transport = transports[current];
      if (transport === undefined) throw new Error(`no upstream transport ${current}`);
      try {
        return await transport(method, params);
      } catch (error) {
        if (tried >= transports.length || !isTransientUpstreamError(error)) throw error;
        current = (current + 1) % transports.length;
      }
    }
  };
}
