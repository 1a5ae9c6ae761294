/*
 * nearcore `InvalidTxError` as it appears on the wire (core/primitives/src/errors.rs):
 * externally tagged, unit variants as bare strings, snake_case fields, u64 as JSON numbers,
 * u128 as decimal strings, public keys as "ed25519:…" strings. This is the value under
 * `data.TxExecutionError.InvalidTxError` of an INVALID_TRANSACTION RPC error, and under
 * `Failure.InvalidTxError` of an outcome status.
 */

export type InvalidAccessKeyErrorJson =
  | { AccessKeyNotFound: { account_id: string; public_key: string } }
  | { ReceiverMismatch: { tx_receiver: string; ak_receiver: string } }
  | { MethodNameMismatch: { method_name: string } }
  | "RequiresFullAccess"
  | { NotEnoughAllowance: { account_id: string; public_key: string; allowance: string; cost: string } }
  | "DepositWithFunctionCall"
  | "DelegateActionRequiresGasKey"
  | "DelegateActionRequiresNonGasKey";

export type ActionsValidationErrorJson =
  | "DeleteActionMustBeFinal"
  | { TotalPrepaidGasExceeded: { total_prepaid_gas: number; limit: number } }
  | { TotalNumberOfActionsExceeded: { total_number_of_actions: number; limit: number } }
  | { AddKeyMethodNamesNumberOfBytesExceeded: { total_number_of_bytes: number; limit: number } }
  | { AddKeyMethodNameLengthExceeded: { length: number; limit: number } }
  | "IntegerOverflow"
  | { InvalidAccountId: { account_id: string } }
  | { ContractSizeExceeded: { size: number; limit: number } }
  | { FunctionCallMethodNameLengthExceeded: { length: number; limit: number } }
  | { FunctionCallArgumentsLengthExceeded: { length: number; limit: number } }
  | { UnsuitableStakingKey: { public_key: string } }
  | "FunctionCallZeroAttachedGas"
  | "DelegateActionMustBeOnlyOne"
  | { UnsupportedProtocolFeature: { protocol_feature: string; version: number } }
  | { RemovedProtocolFeature: { protocol_feature: string; version: number } }
  | { TotalNumberOfDeployActionsExceeded: { number_of_deploy_actions: number; limit: number } }
  | { TotalNumberOfStateInitEntriesExceeded: { number_of_entries: number; limit: number } }
  | "FunctionCallEmptyMethodName"
  | "WithdrawFromGasKeyNotAllowedInDelegate"
  | { GasKeyInvalidNumNonces: { requested_nonces: number; limit: number } }
  | { AddGasKeyWithNonZeroBalance: { balance: string } }
  | "GasKeyFunctionCallAllowanceNotAllowed"
  | { InvalidDeterministicStateInitReceiver: { receiver_id: string; derived_id: string } }
  | { DeterministicStateInitKeyLengthExceeded: { length: number; limit: number } }
  | { DeterministicStateInitValueLengthExceeded: { length: number; limit: number } };

export type InvalidTxErrorJson =
  | { InvalidAccessKeyError: InvalidAccessKeyErrorJson }
  | { InvalidSignerId: { signer_id: string } }
  | { SignerDoesNotExist: { signer_id: string } }
  | { InvalidNonce: { tx_nonce: number; ak_nonce: number } }
  | { NonceTooLarge: { tx_nonce: number; upper_bound: number } }
  | { InvalidReceiverId: { receiver_id: string } }
  | "InvalidSignature"
  | { NotEnoughBalance: { signer_id: string; balance: string; cost: string } }
  | { LackBalanceForState: { signer_id: string; amount: string } }
  | "CostOverflow"
  | "InvalidChain"
  | "Expired"
  | { ActionsValidation: ActionsValidationErrorJson }
  | { TransactionSizeExceeded: { size: number; limit: number } }
  | "InvalidTransactionVersion"
  | { InvalidNonceIndex: { tx_nonce_index: number | null; num_nonces: number } }
  | { NotEnoughGasKeyBalance: { signer_id: string; balance: string; cost: string } }
  | {
      NotEnoughBalanceForDeposit: {
        signer_id: string;
        balance: string;
        cost: string;
        reason: "NotEnoughBalance" | "LackBalanceForState";
      };
    };
