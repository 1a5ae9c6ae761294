// Type-level tests of the transaction methods' generated contract (checked by `tsc --noEmit`;
// the runtime part only keeps vitest happy): the tx-status params union, the two result
// shapes, the closed error unions and the structured error `data`.

import { describe, expectTypeOf, it } from "vitest";
import type {
  ActionView,
  ExperimentalTxStatusResult,
  FinalExecutionStatus,
  InvalidTxError,
  SendTxParams,
  TxExecutionStatus,
  TxParams,
  TxResult,
} from "../generated/rpc/types.js";
import type { RpcErrorCauseData, RpcErrorObject } from "../generated/rpc/errors.js";

const hash = "33KtesATGSZENesBj1t5JgMRRQpNMNH3AXEfpPwrBc2B";

describe("transaction method types", () => {
  it("names a transaction by hash and signer or by the signed transaction, never both", () => {
    const byHash: TxParams = { tx_hash: hash, sender_account_id: "alice.near", wait_until: "FINAL" };
    const bySigned: TxParams = { signed_tx_base64: "AA==" };
    // @ts-expect-error the two forms do not mix
    const both: TxParams = { tx_hash: hash, sender_account_id: "alice.near", signed_tx_base64: "AA==" };
    // @ts-expect-error tx_hash needs sender_account_id
    const hashOnly: TxParams = { tx_hash: hash };
    const badWait: SendTxParams = {
      signed_tx_base64: "AA==",
      // @ts-expect-error wait_until is a TxExecutionStatus
      wait_until: "DONE",
    };
    void [byHash, bySigned, both, hashOnly, badWait];
    expectTypeOf<SendTxParams["wait_until"]>().toEqualTypeOf<TxExecutionStatus | undefined>();
  });

  it("tells the status-only result from the full outcome by `status`", () => {
    const read = (r: TxResult) => ("status" in r ? r.transaction_outcome.id : r.final_execution_status);
    expectTypeOf(read).returns.toEqualTypeOf<string>();
    const none: TxResult = { final_execution_status: "NONE" };
    // @ts-expect-error the status-only result is exactly NONE
    const notNone: TxResult = { final_execution_status: "FINAL" };
    void [none, notNone];
    const receipts = (r: ExperimentalTxStatusResult) => ("receipts" in r ? r.receipts.length : 0);
    void receipts;
  });

  it("keeps externally tagged unions narrowable", () => {
    const status = (s: FinalExecutionStatus) =>
      typeof s === "string" ? s : "Failure" in s ? s.Failure : s.SuccessValue;
    void status;
    const nonce = (e: InvalidTxError) =>
      typeof e !== "string" && e.InvalidNonce ? e.InvalidNonce.ak_nonce : 0;
    expectTypeOf(nonce).returns.toEqualTypeOf<number>();
    const deposit = (a: ActionView) => (typeof a === "object" && a.Transfer ? a.Transfer.deposit : "0");
    expectTypeOf(deposit).returns.toEqualTypeOf<string>();
  });

  it("types structured error data per cause", () => {
    expectTypeOf<RpcErrorCauseData["UNKNOWN_ACCOUNT"]>().toEqualTypeOf<string>();
    const invalid: RpcErrorObject<"INVALID_TRANSACTION"> = {
      name: "HANDLER_ERROR",
      cause: { name: "INVALID_TRANSACTION", info: {} },
      code: -32000,
      message: "Server error",
      data: { TxExecutionError: { InvalidTxError: { InvalidNonce: { tx_nonce: 6, ak_nonce: 20 } } } },
    };
    const textData: RpcErrorObject<"INVALID_TRANSACTION"> = {
      name: "HANDLER_ERROR",
      cause: { name: "INVALID_TRANSACTION", info: {} },
      code: -32000,
      message: "Server error",
      // @ts-expect-error INVALID_TRANSACTION's data is structured, not text
      data: "InvalidNonce",
    };
    const timeout: RpcErrorObject<"TIMEOUT_ERROR"> = {
      name: "HANDLER_ERROR",
      cause: { name: "TIMEOUT_ERROR" },
      code: -32000,
      message: "Server error",
      data: "Timeout",
    };
    void [invalid, textData, timeout];
  });
});
