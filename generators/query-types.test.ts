// Type-level tests of the generated contract (checked by `tsc --noEmit`; the runtime part only
// keeps vitest happy). They pin the exactness rules of schema-to-ts.ts on the real spec.

import { describe, expectTypeOf, it } from "vitest";
import type {
  AccessKeyPermission,
  BlockParams,
  BlockReference,
  GasPriceParams,
  HealthResult,
  QueryErrorResult,
  QueryParams,
  QueryResult,
  StatusParams,
  ViewAccessKeyParams,
  ViewAccountParams,
  ViewStateParams,
  ViewStateResult,
} from "../generated/rpc/types.js";
import type { RpcHandlers, RpcMethodName, RpcMethods } from "../generated/rpc/methods.js";
import type { RpcErrorCause, RpcErrorCauseInfo, RpcErrorObject } from "../generated/rpc/errors.js";
import type { RpcClient } from "../generated/rpc/client.js";

describe("generated types", () => {
  it("narrows QueryParams by request_type", () => {
    const narrow = (params: QueryParams) => {
      switch (params.request_type) {
        case "view_state":
          expectTypeOf(params.prefix_base64).toEqualTypeOf<string>();
          expectTypeOf(params.limit).toEqualTypeOf<number | null | undefined>();
          // @ts-expect-error public_key belongs to view_access_key
          void params.public_key;
          return params.account_id;
        case "view_access_key":
          expectTypeOf(params.public_key).toEqualTypeOf<string>();
          return params.account_id;
        case "call_function":
          expectTypeOf(params.method_name).toEqualTypeOf<string>();
          return params.account_id;
        case "view_global_contract_code":
          expectTypeOf(params.code_hash).toEqualTypeOf<string>();
          return params.code_hash;
        case "view_gas_key_nonces":
          expectTypeOf(params.public_key).toEqualTypeOf<string>();
          return params.account_id;
        default:
          expectTypeOf(params.request_type).toEqualTypeOf<
            "view_account" | "view_access_key_list" | "view_code" | "view_global_contract_code_by_account_id"
          >();
          return params.account_id;
      }
    };
    void narrow;
    expectTypeOf<ViewStateParams>().toMatchTypeOf<QueryParams>();
    expectTypeOf<Extract<QueryParams, { request_type: "view_account" }>>().toEqualTypeOf<
      Extract<ViewAccountParams, { request_type: "view_account" }>
    >();
  });

  it("accepts exactly one block reference and rejects mixed variants", () => {
    const ok: QueryParams = { request_type: "view_account", finality: "final", account_id: "alice.near" };
    const byHeight: ViewAccessKeyParams = {
      request_type: "view_access_key",
      block_id: 5,
      account_id: "alice.near",
      public_key: "ed25519:x",
    };
    // @ts-expect-error two block references
    const twoRefs: BlockParams = { finality: "final", block_id: 1 };
    // @ts-expect-error no block reference
    const noRef: QueryParams = { request_type: "view_account", account_id: "alice.near" };
    // @ts-expect-error prefix_base64 is required for view_state
    const noPrefix: QueryParams = { request_type: "view_state", finality: "final", account_id: "a.near" };
    const extra: QueryParams = {
      request_type: "view_account",
      finality: "final",
      account_id: "a.near",
      // @ts-expect-error view_account has no public_key
      public_key: "x",
    };
    const unknownType: QueryParams = {
      // @ts-expect-error unknown request_type
      request_type: "view_gas_key",
      finality: "final",
      account_id: "a.near",
    };
    void [ok, byHeight, twoRefs, noRef, noPrefix, extra, unknownType];
    expectTypeOf<BlockParams>().toEqualTypeOf<BlockReference>();
  });

  it("keeps optional distinct from undefined and nulls explicit", () => {
    // @ts-expect-error exactOptionalPropertyTypes: limit may be absent, not undefined
    const undefinedLimit: ViewStateParams = {
      request_type: "view_state",
      finality: "final",
      account_id: "a.near",
      prefix_base64: "",
      limit: undefined,
    };
    const nullBlock: GasPriceParams = { block_id: null };
    const noBlock: GasPriceParams = {};
    // @ts-expect-error no-param methods take an empty object
    const statusParams: StatusParams = { verbose: true };
    void [undefinedLimit, nullBlock, noBlock, statusParams];
    expectTypeOf<HealthResult>().toEqualTypeOf<null>();
    expectTypeOf<QueryErrorResult["logs"]>().toEqualTypeOf<[]>();
    expectTypeOf<ViewStateResult["last_key"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<AccessKeyPermission>().toEqualTypeOf<
      | "FullAccess"
      | { FunctionCall: { allowance: string | null; receiver_id: string; method_names: string[] } }
    >();
  });

  it("lets callers tell the legacy error-as-result apart", () => {
    const read = (result: QueryResult) => ("error" in result ? result.error : result.block_height);
    expectTypeOf(read).returns.toEqualTypeOf<string | number>();
  });

  it("ties handlers, client and error causes to the spec", () => {
    expectTypeOf<keyof RpcMethods>().toEqualTypeOf<RpcMethodName>();
    expectTypeOf<keyof RpcHandlers<unknown>>().toEqualTypeOf<RpcMethodName>();
    expectTypeOf<keyof RpcClient>().toEqualTypeOf<
      | "block"
      | "blockEffects"
      | "broadcastTxAsync"
      | "broadcastTxCommit"
      | "changes"
      | "experimentalChanges"
      | "experimentalChangesInBlock"
      | "experimentalCallFunction"
      | "chunk"
      | "clientConfig"
      | "experimentalClientConfig"
      | "experimentalCongestionLevel"
      | "experimentalGenesisConfig"
      | "experimentalMaintenanceWindows"
      | "experimentalLightClientBlockProof"
      | "experimentalLightClientProof"
      | "experimentalProtocolConfig"
      | "experimentalReceipt"
      | "experimentalReceiptToTx"
      | "experimentalSplitStorageInfo"
      | "experimentalTxStatus"
      | "experimentalValidatorsOrdered"
      | "gasPrice"
      | "genesisConfig"
      | "health"
      | "lightClientProof"
      | "lightClientBlockProof"
      | "experimentalViewAccount"
      | "experimentalViewCode"
      | "experimentalViewState"
      | "experimentalViewAccessKey"
      | "experimentalViewGasKeyNonces"
      | "experimentalViewAccessKeyList"
      | "maintenanceWindows"
      | "networkInfo"
      | "nextLightClientBlock"
      | "query"
      | "rpcDiscover"
      | "sandboxFastForward"
      | "sandboxPatchState"
      | "sendTx"
      | "shardkitReset"
      | "shardkitRevert"
      | "shardkitSnapshot"
      | "status"
      | "tx"
      | "validators"
    >();
    expectTypeOf<RpcErrorCauseInfo["NO_SYNCED_BLOCKS"]>().toEqualTypeOf<undefined>();
    const unknownAccount: RpcErrorObject = {
      name: "HANDLER_ERROR",
      cause: {
        name: "UNKNOWN_ACCOUNT",
        info: { requested_account_id: "a.near", block_height: 1, block_hash: "x" },
      },
      code: -32000,
      message: "Server error",
      data: "account a.near does not exist while viewing",
    };
    const parseError: RpcErrorObject<"PARSE_ERROR"> = {
      // @ts-expect-error PARSE_ERROR is a REQUEST_VALIDATION_ERROR
      name: "HANDLER_ERROR",
      cause: { name: "PARSE_ERROR", info: { error_message: "x" } },
      code: -32700,
      message: "Parse error",
      data: "x",
    };
    void [unknownAccount, parseError];
    expectTypeOf<
      Extract<RpcErrorCause, { name: "UNKNOWN_ACCOUNT" }>["info"]["requested_account_id"]
    >().toEqualTypeOf<string>();
  });
});
