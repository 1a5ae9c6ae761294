import { rpcMethodNames, type RpcHandlers, type RpcMethodName } from "../../../generated/rpc/methods.js";
import { validateParams } from "../../../generated/rpc/validators.js";
import { InternalError, MethodNotFoundError, ParseError, RpcError } from "../errors.js";
import { UpstreamRpcError, UpstreamUnavailableError } from "../../chain/fork/UpstreamError.js";
import { exceedsJsonDepth } from "./jsonDepth.js";
import { normaliseParams } from "./legacyParams.js";
import { ReplyCache, type ReplyCacheOptions } from "./ReplyCache.js";
import { validationMessage } from "./validationMessage.js";

/** What goes back over HTTP: a status and a serialized JSON-RPC response. */
export interface RpcReply {
  status: number;
  body: string;
}

export interface RpcProcessorOptions<Ctx> {
  handlers: RpcHandlers<Ctx>;
  context: Ctx;
  /** Deepest array/object nesting accepted in a request body. */
  maxJsonDepth: number;
  /** Called with unexpected (non-RpcError) failures; never with request bodies or keys. */
  onInternalError?: (method: string, error: unknown) => void;
  /** Serialized answers kept while `generation` stays the same (see ReplyCache); none without. */
  cache?: ReplyCacheOptions;
}

const knownMethods = new Set<string>(rpcMethodNames);
const envelopeKeys = new Set(["jsonrpc", "id", "method", "params"]);
const REQUEST_EXPECTED = "JSON RPC Request format was expected";

/**
 * The JSON-RPC 2.0 core shared by every listener: parse, check the envelope the way nearcore
 * does (no batches, no notifications, no unknown envelope fields), normalise and validate
 * params with the generated validators, call the handler, and serialize result or error.
 */
export function createRpcProcessor<Ctx>(options: RpcProcessorOptions<Ctx>) {
  const { handlers, context, maxJsonDepth } = options;
  const cache = options.cache === undefined ? undefined : new ReplyCache(options.cache);

  /** Synchronous when the handler is; a promise only for asynchronous handlers. */
  return function process(body: Buffer): RpcReply | Promise<RpcReply> {
    let bodyKey: string | undefined;
    if (cache !== undefined) {
      cache.refresh();
      bodyKey = cache.bodyKey(body);
      const hit = bodyKey === undefined ? undefined : cache.replyFor(bodyKey);
      if (hit !== undefined) return hit;
    }
    const checked = checkRequest(body, maxJsonDepth, options.onInternalError);
    if (isReply(checked)) return checked;
    const { id, method: name, params } = checked;
    try {
      const paramsKey = cache !== undefined && cache.cacheable(name, params) ? cache.paramsKey(name, params) : undefined;
      if (paramsKey !== undefined) {
        const cached = cache!.resultFor(paramsKey);
        if (cached !== undefined) return rememberedReply(bodyKey, paramsKey, cached, id);
      }
      const handler = handlers[name] as (params: unknown, ctx: Ctx) => unknown;
      const result = handler(params, context);
      if (result instanceof Promise) return result.then((value) => resultReply(id, value), (error: unknown) => failure(name, id, error));
      if (paramsKey !== undefined) return rememberedReply(bodyKey, paramsKey, JSON.stringify(result), id);
      return resultReply(id, result);
    } catch (error) {
      return failure(name, id, error);
    }
  };

  /** A successful synchronous answer of a cacheable request, kept for the current generation. */
  function rememberedReply(bodyKey: string | undefined, paramsKey: string, resultJson: string, id: unknown): RpcReply {
    const reply = resultJsonReply(id, resultJson);
    cache!.remember(bodyKey, paramsKey, resultJson, reply);
    return reply;
  }

  function failure(method: string, id: unknown, error: unknown): RpcReply {
    if (error instanceof RpcError) return errorReply(id, error);
    // A fork's upstream could not answer a state read: not a bug here; the message names the call.
    if (error instanceof UpstreamUnavailableError || error instanceof UpstreamRpcError) return errorReply(id, new InternalError(error.message));
    options.onInternalError?.(method, error);
    return errorReply(id, new InternalError(error instanceof Error ? error.message : String(error)));
  }
}

/** A request that passed every check `serve` makes before calling a handler. */
export interface CheckedRequest {
  readonly id: unknown;
  readonly method: RpcMethodName;
  /** Normalised to the by-name form the spec describes (legacy positional params converted). */
  readonly params: unknown;
}

/** Tells a refusal (the error reply to send) from a checked request. */
export function isReply(value: CheckedRequest | RpcReply): value is RpcReply {
  return (value as RpcReply).body !== undefined;
}

/**
 * Everything `serve` checks before a handler runs: JSON depth, JSON syntax, the envelope the
 * way nearcore checks it (no batches, no notifications, no unknown envelope fields), a known
 * method, params normalised and validated by the generated validators. The gateway runs the
 * same checks before forwarding, so a bad request gets the same answer from both.
 */
export function checkRequest(
  body: Buffer,
  maxJsonDepth: number,
  onInternalError?: (method: string, error: unknown) => void,
): CheckedRequest | RpcReply {
  if (exceedsJsonDepth(body, maxJsonDepth)) {
    return errorReply(null, new ParseError(`JSON nesting deeper than ${maxJsonDepth} levels is not accepted`));
  }
  let request: unknown;
  try {
    request = JSON.parse(body.toString("utf8"));
  } catch (error) {
    return errorReply(null, new ParseError(`Invalid JSON: ${(error as Error).message}`));
  }
  if (!isRequestEnvelope(request)) return errorReply(null, new ParseError(REQUEST_EXPECTED));

  const { id, method } = request;
  if (!knownMethods.has(method)) return errorReply(id, new MethodNotFoundError(method));
  const name = method as RpcMethodName;
  try {
    const params = normaliseParams(name, request.params);
    if (!paramsValid(name, params)) throw new ParseError(`Failed parsing args: ${validationMessage(validateParams[name].errors)}`);
    return { id, method: name, params };
  } catch (error) {
    if (error instanceof RpcError) return errorReply(id, error);
    onInternalError?.(name, error);
    return errorReply(id, new InternalError(error instanceof Error ? error.message : String(error)));
  }
}

/**
 * Runs the generated validator. A value so large or deep that validation itself overflows
 * the stack is refused as invalid params rather than reported as a server failure.
 */
function paramsValid(method: RpcMethodName, params: unknown): boolean {
  try {
    return validateParams[method](params);
  } catch (error) {
    if (error instanceof RangeError) throw new ParseError("Failed parsing args: params too large to validate");
    throw error;
  }
}

function resultReply(id: unknown, result: unknown): RpcReply {
  return resultJsonReply(id, JSON.stringify(result));
}

function resultJsonReply(id: unknown, resultJson: string): RpcReply {
  return { status: 200, body: `{"jsonrpc":"2.0","result":${resultJson},"id":${JSON.stringify(id)}}` };
}

interface RequestEnvelope {
  jsonrpc: "2.0";
  id: unknown;
  method: string;
  params?: unknown;
}

function isRequestEnvelope(value: unknown): value is RequestEnvelope {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  for (const key in record) if (!envelopeKeys.has(key)) return false;
  return record.jsonrpc === "2.0" && typeof record.method === "string" && "id" in record;
}

export function errorReply(id: unknown, error: RpcError): RpcReply {
  return {
    status: error.httpStatus,
    body: `{"jsonrpc":"2.0","error":${JSON.stringify(error.toBody())},"id":${JSON.stringify(id ?? null)}}`,
  };
}
