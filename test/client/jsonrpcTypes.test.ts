// Type-level tests of @shardkit/client/jsonrpc (checked by `tsc --noEmit` in `npm run typecheck`;
// the runtime part only keeps vitest happy): query's result follows request_type, and errors
// carry their cause's info/data types.

import { describe, expectTypeOf, it } from "vitest";
import type {
  CallFunctionResult,
  InvalidTransactionData,
  QueryErrorResult,
  QueryResult,
  RpcClient,
  RpcErrorOf,
  RpcMethodError,
  UnknownAccountInfo,
  UnknownBlockInfo,
  ViewAccessKeyListResult,
  ViewAccessKeyResult,
  ViewAccountResult,
  ViewCodeResult,
  ViewStateResult,
} from "../../packages/client/src/jsonrpc/index.js";
import {
  InvalidTransactionError,
  RpcResponseError,
  TimeoutError,
  UnknownAccountError,
  isMethodError,
  isRpcError,
} from "../../packages/client/src/jsonrpc/index.js";

declare const rpc: RpcClient;

describe("query narrowing", () => {
  it("gives each request_type its own result", () => {
    const typed = () => {
      expectTypeOf(rpc.query({ request_type: "view_account", finality: "final", account_id: "a.near" })).resolves.toEqualTypeOf<ViewAccountResult>();
      expectTypeOf(rpc.query({ request_type: "view_state", block_id: 5, account_id: "a.near", prefix_base64: "" })).resolves.toEqualTypeOf<ViewStateResult>();
      expectTypeOf(rpc.query({ request_type: "view_code", finality: "final", account_id: "a.near" })).resolves.toEqualTypeOf<ViewCodeResult>();
      expectTypeOf(rpc.query({ request_type: "view_access_key_list", finality: "final", account_id: "a.near" })).resolves.toEqualTypeOf<ViewAccessKeyListResult>();
      // The two legacy error-as-result answers stay in the types where nearcore sends them.
      expectTypeOf(rpc.query({ request_type: "view_access_key", finality: "final", account_id: "a.near", public_key: "ed25519:x" })).resolves.toEqualTypeOf<
        ViewAccessKeyResult | QueryErrorResult
      >();
      expectTypeOf(
        rpc.query({ request_type: "call_function", finality: "final", account_id: "a.near", method_name: "m", args_base64: "" }),
      ).resolves.toEqualTypeOf<CallFunctionResult | QueryErrorResult>();
    };
    void typed;
  });

  it("keeps the whole union for params whose request_type is not known statically", () => {
    type Wide = Extract<Parameters<RpcClient["query"]>[0], { request_type: "view_state" }>;
    expectTypeOf<Wide["prefix_base64"]>().toEqualTypeOf<string>();
    const wide = (params: import("../../packages/client/src/jsonrpc/index.js").QueryParams) => rpc.query(params);
    expectTypeOf(wide).returns.resolves.toEqualTypeOf<QueryResult>();
  });

  it("rejects params of the wrong variant and unknown keys", () => {
    const typed = () => {
      // @ts-expect-error view_account has no prefix_base64
      void rpc.query({ request_type: "view_account", finality: "final", account_id: "a.near", prefix_base64: "" });
      // @ts-expect-error view_state needs prefix_base64
      void rpc.query({ request_type: "view_state", finality: "final", account_id: "a.near" });
      // @ts-expect-error two block references
      void rpc.query({ request_type: "view_account", finality: "final", block_id: 1, account_id: "a.near" });
    };
    void typed;
  });
});

describe("typed errors", () => {
  it("gives each cause class its info and data types", () => {
    expectTypeOf<UnknownAccountError["info"]>().toEqualTypeOf<UnknownAccountInfo>();
    expectTypeOf<UnknownAccountError["data"]>().toEqualTypeOf<string>();
    expectTypeOf<UnknownAccountError["causeName"]>().toEqualTypeOf<"UNKNOWN_ACCOUNT">();
    expectTypeOf<InvalidTransactionError["data"]>().toEqualTypeOf<InvalidTransactionData>();
    expectTypeOf<TimeoutError["info"]>().toEqualTypeOf<undefined>();
    const base: RpcResponseError = new UnknownAccountError("query", 200, {
      name: "HANDLER_ERROR",
      cause: { name: "UNKNOWN_ACCOUNT", info: { requested_account_id: "a.near", block_height: 1, block_hash: "11111111111111111111111111111111" } },
      code: -32000,
      message: "Server error",
      data: "account a.near does not exist while viewing",
    });
    void base;
  });

  it("narrows an unknown catch value by cause and by method", () => {
    const handle = (error: unknown) => {
      if (isRpcError(error, "UNKNOWN_ACCOUNT", "UNKNOWN_BLOCK")) {
        expectTypeOf(error).toEqualTypeOf<RpcResponseError<"UNKNOWN_ACCOUNT"> | RpcResponseError<"UNKNOWN_BLOCK">>();
        if (error.causeName === "UNKNOWN_BLOCK") expectTypeOf(error.info).toEqualTypeOf<UnknownBlockInfo>();
        else expectTypeOf(error.info).toEqualTypeOf<UnknownAccountInfo>();
      }
      if (error instanceof RpcResponseError && error.is("INVALID_TRANSACTION")) {
        expectTypeOf(error.data.TxExecutionError.InvalidTxError).not.toBeUnknown();
      }
      if (isMethodError(error, "query")) {
        expectTypeOf(error.causeName).toEqualTypeOf<
          "PARSE_ERROR" | "UNKNOWN_BLOCK" | "GARBAGE_COLLECTED_BLOCK" | "UNAVAILABLE_SHARD" | "NO_SYNCED_BLOCKS" | "UNKNOWN_ACCOUNT" | "NO_CONTRACT_CODE" | "NO_GLOBAL_CONTRACT_CODE" | "UNKNOWN_GAS_KEY" | "TOO_LARGE_CONTRACT_STATE" | "TIMEOUT_ERROR" | "INTERNAL_ERROR"
        >();
        // A cause the method never answers is not part of its error type.
        // @ts-expect-error UNKNOWN_RECEIPT is not a query cause
        const never: RpcMethodError<"query"> = {} as RpcErrorOf<"UNKNOWN_RECEIPT">;
        void never;
      }
    };
    void handle;
  });
});
