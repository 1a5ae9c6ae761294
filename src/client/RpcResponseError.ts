import type { RpcErrorCauseName } from "../../generated/rpc/errors.js";

/** The error object a JSON-RPC response carried, as nearcore shapes it. */
export interface RpcErrorPayload {
  name: string;
  cause: { name: RpcErrorCauseName; info?: unknown };
  code: number;
  message: string;
  data?: unknown;
}

/**
 * A JSON-RPC error answer. `causeName` is the stable thing to switch on (UNKNOWN_ACCOUNT,
 * INVALID_TRANSACTION, TIMEOUT_ERROR, ...); `info` and `data` carry its details.
 */
export class RpcResponseError extends Error {
  override readonly name = "RpcResponseError";
  readonly causeName: RpcErrorCauseName;
  readonly info: unknown;
  readonly data: unknown;

  constructor(
    readonly method: string,
    readonly httpStatus: number,
    readonly payload: RpcErrorPayload,
  ) {
    const detail = typeof payload.data === "string" ? payload.data : JSON.stringify(payload.data ?? payload.cause.info ?? {});
    super(`${method}: ${payload.cause.name}: ${detail}`);
    this.causeName = payload.cause.name;
    this.info = payload.cause.info;
    this.data = payload.data;
  }
}

/** An HTTP answer that is not JSON-RPC at all (403 for an unknown API key, 413, 404...). */
export class RpcHttpError extends Error {
  override readonly name = "RpcHttpError";

  constructor(
    readonly method: string,
    readonly httpStatus: number,
    readonly body: string,
  ) {
    super(`${method}: HTTP ${httpStatus}: ${body.slice(0, 200)}`);
  }
}
