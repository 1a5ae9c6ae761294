import { isRpcMethodName, RelayedResult, type RpcHandlers, type RpcMethodName } from "../../../generated/rpc/methods.js";
import { validateParams, type RpcParams, type Validator } from "../../../generated/rpc/validators.js";
import { InternalError, MethodNotFoundError, ParseError, RelayedRpcError, RpcError } from "../errors.js";
import { UpstreamRpcError, UpstreamUnavailableError } from "../../chain/fork/UpstreamError.js";
import { isJsonObject } from "@shardkit/primitives/isJsonObject";
import { exceedsJsonDepth } from "./jsonDepth.js";
import { normaliseParams } from "./legacyParams.js";
import { withoutNestedUnknownField } from "./unknownParams.js";
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
    return answer(checked, bodyKey);
  };

  /** Calls the request's handler (or finds its answer in the cache) and serializes the outcome. */
  function answer<M extends RpcMethodName>(request: CheckedRequest<M>, bodyKey: string | undefined): RpcReply | Promise<RpcReply> {
    const { id, method, params } = request;
    try {
      const cached = cache === undefined || !cache.cacheable(method, params) ? undefined : { cache, paramsKey: cache.paramsKey(method, params) };
      if (cached !== undefined) {
        const resultJson = cached.cache.resultFor(cached.paramsKey);
        if (resultJson !== undefined) return rememberedReply(cached.cache, bodyKey, cached.paramsKey, resultJson, id);
      }
      const handler: RpcHandlers<Ctx>[M] = handlers[method];
      const result = handler(params, context);
      if (result instanceof Promise) return result.then((value) => resultReply(id, value), (error: unknown) => failure(method, id, error));
      if (cached !== undefined && !(result instanceof RelayedResult)) return rememberedReply(cached.cache, bodyKey, cached.paramsKey, JSON.stringify(result), id);
      return resultReply(id, result);
    } catch (error) {
      return failure(method, id, error);
    }
  }

  /** A successful synchronous answer of a cacheable request, kept for the current generation. */
  function rememberedReply(cache: ReplyCache, bodyKey: string | undefined, paramsKey: string, resultJson: string, id: unknown): RpcReply {
    const reply = resultJsonReply(id, resultJson);
    cache.remember(bodyKey, paramsKey, resultJson, reply);
    return reply;
  }

  function failure(method: string, id: unknown, error: unknown): RpcReply {
    if (error instanceof RpcError || error instanceof RelayedRpcError) return errorReply(id, error);
    // A fork's upstream could not answer a state read: not a bug here; the message names the call.
    if (error instanceof UpstreamUnavailableError || error instanceof UpstreamRpcError) return errorReply(id, new InternalError(error.message));
    options.onInternalError?.(method, error);
    return errorReply(id, new InternalError(error instanceof Error ? error.message : String(error)));
  }
}

/**
 * A request that passed every check `serve` makes before calling a handler: one per method, its
 * params of that method's type.
 */
export type CheckedRequest<M extends RpcMethodName = RpcMethodName> = {
  [K in M]: {
    readonly id: unknown;
    readonly method: K;
    /** Normalised to the by-name form the spec describes (legacy positional params converted), and validated. */
    readonly params: RpcParams<K>;
  };
}[M];

/** Tells a refusal (the error reply to send) from a checked request. */
export function isReply(value: CheckedRequest | RpcReply): value is RpcReply {
  return "body" in value;
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
    return errorReply(null, new ParseError(`Invalid JSON: ${error instanceof Error ? error.message : String(error)}`));
  }
  if (!isRequestEnvelope(request)) return errorReply(null, new ParseError(REQUEST_EXPECTED));

  const { id, method } = request;
  if (!isRpcMethodName(method)) return errorReply(id, new MethodNotFoundError(method));
  try {
    return checked(id, method, request.params);
  } catch (error) {
    if (error instanceof RpcError) return errorReply(id, error);
    onInternalError?.(method, error);
    return errorReply(id, new InternalError(error instanceof Error ? error.message : String(error)));
  }
}

/** The request with its params normalised and validated as `method`'s. */
function checked<M extends RpcMethodName>(id: unknown, method: M, params: unknown): CheckedRequest<M> {
  return { id, method, params: checkedParams(method, normaliseParams(method, params)) };
}

/**
 * `params` as the method's params type once its generated validator accepts them; a ParseError
 * saying why otherwise. A value so large or deep that validation itself overflows the stack is
 * refused as invalid params rather than reported as a server failure.
 */
function checkedParams<M extends RpcMethodName>(method: M, params: unknown): RpcParams<M> {
  const validate: Validator<RpcParams<M>> = validateParams[method];
  let value = params;
  // Drops undeclared nested fields one at a time (methods that ignore them), bounded.
  for (let dropped = 0; !accepts(validate, value); dropped++) {
    const next = dropped < MAX_DROPPED_FIELDS ? withoutNestedUnknownField(method, value, validate.errors) : undefined;
    if (next === undefined) throw new ParseError(`Failed parsing args: ${validationMessage(validate.errors)}`);
    value = next;
  }
  return value;
}

/** Undeclared nested fields dropped from one request before it is refused instead. */
const MAX_DROPPED_FIELDS = 64;

function accepts<T>(validate: Validator<T>, value: unknown): value is T {
  try {
    return validate(value);
  } catch (error) {
    if (error instanceof RangeError) throw new ParseError("Failed parsing args: params too large to validate");
    throw error;
  }
}

function resultReply(id: unknown, result: unknown): RpcReply {
  return resultJsonReply(id, JSON.stringify(result instanceof RelayedResult ? result.json : result));
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
  if (!isJsonObject(value)) return false;
  for (const key in value) if (!envelopeKeys.has(key)) return false;
  return value.jsonrpc === "2.0" && typeof value.method === "string" && "id" in value;
}

export function errorReply(id: unknown, error: RpcError | RelayedRpcError): RpcReply {
  return {
    status: error.httpStatus,
    body: `{"jsonrpc":"2.0","error":${JSON.stringify(error.toBody())},"id":${JSON.stringify(id ?? null)}}`,
  };
}
