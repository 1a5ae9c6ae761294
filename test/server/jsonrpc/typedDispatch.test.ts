// Type-level tests of the typed edges of JSON-RPC dispatch (checked by `tsc --noEmit` in
// `npm run typecheck`), with a runtime part for the guards themselves.

import { describe, expect, expectTypeOf, it } from "vitest";
import type { RpcErrorCauseData } from "../../../generated/rpc/errors.js";
import type { BlockParams, QueryParams, UnknownAccountInfo, UnknownBlockErrorData } from "../../../generated/rpc/types.js";
import { isRpcErrorData, isRpcErrorInfo, validateParams } from "../../../generated/rpc/validators.js";
import { ParseError, RpcError, UnknownAccountError } from "../../../src/server/errors.js";
import { checkRequest, isReply, type CheckedRequest } from "../../../src/server/jsonrpc/processRequest.js";

describe("typed JSON-RPC dispatch", () => {
  it("validators are type guards for the method's params", () => {
    const value: unknown = { finality: "final" };
    if (validateParams.block(value)) expectTypeOf(value).toEqualTypeOf<BlockParams>();
    expect(validateParams.block(value)).toBe(true);
    expect(validateParams.block({ finality: "soon" })).toBe(false);
  });

  it("a checked request's params have its method's type", () => {
    expectTypeOf<CheckedRequest<"query">["params"]>().toEqualTypeOf<QueryParams>();
    const checked = checkRequest(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"block","params":{"finality":"final"}}'), 64);
    if (isReply(checked)) throw new Error(checked.body);
    if (checked.method === "block") expectTypeOf(checked.params).toEqualTypeOf<BlockParams>();
    expect(checked).toEqual({ id: 1, method: "block", params: { finality: "final" } });
  });

  it("RpcError carries its cause's info and data types", () => {
    const error = new UnknownAccountError("alice.near", { block_height: 1, block_hash: "11111111111111111111111111111111" });
    expectTypeOf(error.info).toEqualTypeOf<UnknownAccountInfo>();
    expectTypeOf(error.data).toEqualTypeOf<string>();
    expectTypeOf<RpcError<"UNKNOWN_BLOCK">["data"]>().toEqualTypeOf<UnknownBlockErrorData>();
    expectTypeOf<RpcErrorCauseData["UNKNOWN_BLOCK"]>().toEqualTypeOf<UnknownBlockErrorData>();
    expect(error.code).toBe("UNKNOWN_ACCOUNT");
    expect(new ParseError("bad").info).toEqual({ error_message: "bad" });
  });

  it("per-cause guards: a schema where there is one, absent info and text data otherwise", () => {
    expect(isRpcErrorInfo.TIMEOUT_ERROR(undefined)).toBe(true);
    expect(isRpcErrorInfo.TIMEOUT_ERROR({})).toBe(false);
    expect(isRpcErrorData.TIMEOUT_ERROR("Timeout")).toBe(true);
    expect(isRpcErrorInfo.UNKNOWN_ACCOUNT({ requested_account_id: "alice.near", block_height: 1, block_hash: "11111111111111111111111111111111" })).toBe(true);
    expect(isRpcErrorData.UNKNOWN_BLOCK({ name: "UNKNOWN_BLOCK", info: {} })).toBe(true);
    expect(isRpcErrorData.UNKNOWN_BLOCK("DB Not Found Error: BLOCK HEIGHT: 9")).toBe(true);
    expect(isRpcErrorData.UNKNOWN_BLOCK(7)).toBe(false);
  });
});
