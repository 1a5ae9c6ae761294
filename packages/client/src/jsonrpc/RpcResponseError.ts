import { ShardkitError } from "@shardkit/primitives/ShardkitError";
import type { RpcErrorCauseData, RpcErrorCauseInfo, RpcErrorCauseName, RpcErrorName } from "../generated/rpc/errors.js";
import type { RpcMethodErrorCauses } from "../generated/rpc/client.js";

/**
 * The `error` member of a JSON-RPC answer for cause C. (The generated RpcErrorObject ties
 * name/code/message to the cause too, but through a conditional type, which would make the
 * error classes invariant in C; this shape keeps `UnknownAccountError` a `RpcResponseError`.)
 */
export interface RpcErrorPayload<C extends RpcErrorCauseName = RpcErrorCauseName> {
  name: RpcErrorName;
  cause: { name: C; info?: RpcErrorCauseInfo[C] };
  code: number;
  message: string;
  data: RpcErrorCauseData[C];
}

/**
 * A JSON-RPC error answer for one cause. `causeName` is the stable thing to switch on
 * (UNKNOWN_ACCOUNT, INVALID_TRANSACTION, TIMEOUT_ERROR, ...); `info` and `data` have that
 * cause's generated types. The transport throws the cause's own subclass
 * (`UnknownAccountError`, `InvalidTransactionError`, ...), so `instanceof` narrows too.
 */
export class RpcResponseError<out C extends RpcErrorCauseName = RpcErrorCauseName> extends ShardkitError<C> {
  override readonly name: string = "RpcResponseError";
  /** The cause name, as `code` is too. */
  readonly causeName: C;
  /** `cause.info` (undefined for the causes nearcore sends without one). */
  readonly info: RpcErrorCauseInfo[C];
  /** The legacy `data` member: the message text, or a structured value for a few causes. */
  readonly data: RpcErrorCauseData[C];
  /** The JSON-RPC error code (-32000 for handler errors); `code` is the cause name. */
  readonly rpcCode: number;

  constructor(
    /** The method that was called. */
    readonly method: string,
    /** The HTTP status of the answer (nearcore uses 200, 400, 408 and 500). */
    readonly httpStatus: number,
    /** The whole `error` member as received. */
    readonly payload: RpcErrorPayload<C>,
  ) {
    const info = payload.cause.info;
    const detail = typeof payload.data === "string" ? payload.data : JSON.stringify(payload.data ?? info ?? {});
    super(payload.cause.name, `${method}: ${payload.cause.name}`, { details: detail });
    this.causeName = payload.cause.name;
    this.info = info as RpcErrorCauseInfo[C];
    this.data = payload.data;
    this.rpcCode = payload.code;
  }

  /** Narrows this error to one cause: `if (error.is("UNKNOWN_ACCOUNT")) error.info.requested_account_id`. */
  is<K extends RpcErrorCauseName>(cause: K): this is RpcErrorOf<K> {
    return (this.causeName as RpcErrorCauseName) === cause;
  }
}

/** One RpcResponseError per cause, as a union discriminated by `causeName`. */
export type RpcErrorOf<C extends RpcErrorCauseName> = C extends RpcErrorCauseName ? RpcResponseError<C> : never;

/** The errors a method can answer (its x-error-causes), e.g. `RpcMethodError<"query">`. */
export type RpcMethodError<M extends keyof RpcMethodErrorCauses> = RpcErrorOf<RpcMethodErrorCauses[M]>;

/** True when `error` is an RpcResponseError, of one of `causes` when given. */
export function isRpcError<C extends RpcErrorCauseName = RpcErrorCauseName>(
  error: unknown,
  ...causes: C[]
): error is RpcErrorOf<C> {
  return error instanceof RpcResponseError && (causes.length === 0 || causes.includes(error.causeName as C));
}

/** True when `error` is an answer of `method` with one of the causes that method declares. */
export function isMethodError<M extends keyof RpcMethodErrorCauses>(error: unknown, method: M): error is RpcMethodError<M> {
  return error instanceof RpcResponseError && error.method === method;
}

/** An HTTP answer that is not JSON-RPC at all (403 for an unknown API key, 413, 429, 404...). */
export class RpcHttpError extends ShardkitError<"NOT_JSON_RPC"> {
  override readonly name = "RpcHttpError";

  constructor(
    readonly method: string,
    readonly httpStatus: number,
    readonly body: string,
  ) {
    super("NOT_JSON_RPC", `${method}: HTTP ${httpStatus}`, { details: body.slice(0, 200) });
  }
}
