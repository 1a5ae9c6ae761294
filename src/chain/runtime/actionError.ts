import type { PrepareErrorJson } from "../vm/wasm/prepareError.js";
import type { ActionsValidationErrorJson, InvalidAccessKeyErrorJson, InvalidTxErrorJson } from "./invalidTxError.js";

/*
 * nearcore `ActionError` / `ActionErrorKind` / `TxExecutionError` JSON
 * (core/primitives/src/errors.rs). `index` is an Option<u64> without skip_serializing_if, so
 * it is `null` (not absent) when undefined, which nearcore does for a LackBalanceForState
 * found after all actions ran.
 */

export type { PrepareErrorJson } from "../vm/wasm/prepareError.js";

/**
 * nearcore primitives `FunctionCallError` JSON (what the VM's error becomes in outcomes and
 * in `vm_error`): host errors, traps and link errors collapse into an ExecutionError string.
 */
export type FunctionCallErrorJson =
  | { CompilationError: { CodeDoesNotExist: { account_id: string } } }
  | { CompilationError: { PrepareError: PrepareErrorJson } }
  | { CompilationError: { WasmerCompileError: { msg: string } } }
  | { MethodResolveError: "MethodEmptyName" | "MethodNotFound" | "MethodInvalidSignature" }
  | { ExecutionError: string };

/** nearcore `ReceiptValidationError`: what a receipt created by a contract may not be. */
export type ReceiptValidationErrorJson =
  | { NumberInputDataDependenciesExceeded: { number_of_input_data_dependencies: number; limit: number } }
  | { ActionsValidation: ActionsValidationErrorJson };

export type ActionErrorKindJson =
  | { AccountAlreadyExists: { account_id: string } }
  | { AccountDoesNotExist: { account_id: string } }
  | { CreateAccountOnlyByRegistrar: { account_id: string; registrar_account_id: string; predecessor_id: string } }
  | { CreateAccountNotAllowed: { account_id: string; predecessor_id: string } }
  | { ActorNoPermission: { account_id: string; actor_id: string } }
  | { DeleteKeyDoesNotExist: { account_id: string; public_key: string } }
  | { AddKeyAlreadyExists: { account_id: string; public_key: string } }
  | { DeleteAccountStaking: { account_id: string } }
  | { LackBalanceForState: { account_id: string; amount: string } }
  | { TriesToUnstake: { account_id: string } }
  | { TriesToStake: { account_id: string; stake: string; locked: string; balance: string } }
  | { InsufficientStake: { account_id: string; stake: string; minimum_stake: string } }
  | { FunctionCallError: FunctionCallErrorJson }
  | { NewReceiptValidationError: ReceiptValidationErrorJson }
  | { OnlyImplicitAccountCreationAllowed: { account_id: string } }
  | { DeleteAccountWithLargeState: { account_id: string } }
  | "DelegateActionInvalidSignature"
  | { DelegateActionSenderDoesNotMatchTxReceiver: { sender_id: string; receiver_id: string } }
  | "DelegateActionExpired"
  | { DelegateActionAccessKeyError: InvalidAccessKeyErrorJson }
  | { DelegateActionInvalidNonce: { delegate_nonce: number; ak_nonce: number } }
  | { DelegateActionNonceTooLarge: { delegate_nonce: number; upper_bound: number } }
  | { DelegateActionInvalidNonceIndex: { nonce_index: number; num_nonces: number } }
  | { GlobalContractDoesNotExist: { identifier: { CodeHash: string } | { AccountId: string } } }
  | { GasKeyDoesNotExist: { account_id: string; public_key: string } }
  | { InsufficientGasKeyBalance: { account_id: string; public_key: string; balance: string; required: string } }
  | { GasKeyBalanceTooHigh: { account_id: string; public_key: string | null; balance: string } }
  | { TotalPromiseInputSizeExceeded: { size: number; limit: number } };

export interface ActionErrorJson {
  index: number | null;
  kind: ActionErrorKindJson;
}

export type TxExecutionErrorJson = { ActionError: ActionErrorJson } | { InvalidTxError: InvalidTxErrorJson };
