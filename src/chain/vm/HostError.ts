import { ShardkitError } from "@shardkit/primitives/ShardkitError";
import { rustDebugString } from "./rustDebug.js";

/*
 * nearcore near-vm-runner `HostError` (logic/errors.rs): what a host function (or the gas
 * counter) aborts a call with. Each variant keeps its Rust field order, which the Debug text
 * (legacy view message) and the Display text (ExecutionError JSON) both depend on.
 */

type Fields = Readonly<Record<string, string | bigint>>;

export type HostError =
  | { readonly name: "BadUTF16" | "BadUTF8" | "GasExceeded" | "GasLimitExceeded" | "BalanceExceeded" | "EmptyMethodName" }
  | { readonly name: "IntegerOverflow" | "CannotAppendActionToJointPromise" | "CannotReturnJointPromise" }
  | { readonly name: "MemoryAccessViolation" | "InvalidAccountId" | "InvalidMethodName" | "InvalidPublicKey" }
  | { readonly name: "DataIdMalformed" | "ContractCodeHashMalformed" | "CannotSetRefundToOnJointPromise" }
  | { readonly name: "YieldIdMalformed" }
  | { readonly name: "GuestPanic"; readonly fields: { readonly panic_msg: string } }
  | { readonly name: "InvalidPromiseIndex"; readonly fields: { readonly promise_idx: bigint } }
  | { readonly name: "InvalidPromiseResultIndex"; readonly fields: { readonly result_idx: bigint } }
  | { readonly name: "InvalidRegisterId"; readonly fields: { readonly register_id: bigint } }
  | { readonly name: "InvalidReceiptIndex"; readonly fields: { readonly receipt_index: bigint } }
  | { readonly name: "InvalidActionIndex"; readonly fields: { readonly action_index: bigint } }
  | { readonly name: "ProhibitedInView"; readonly fields: { readonly method_name: string } }
  | { readonly name: "Deprecated"; readonly fields: { readonly method_name: string } }
  | { readonly name: "NumberOfLogsExceeded"; readonly fields: { readonly limit: bigint } }
  | {
      readonly name:
        | "KeyLengthExceeded"
        | "ValueLengthExceeded"
        | "TotalLogLengthExceeded"
        | "ReturnedValueLengthExceeded"
        | "YieldPayloadLength";
      readonly fields: { readonly length: bigint; readonly limit: bigint };
    }
  | { readonly name: "NumberPromisesExceeded"; readonly fields: { readonly number_of_promises: bigint; readonly limit: bigint } }
  | {
      readonly name: "NumberInputDataDependenciesExceeded";
      readonly fields: { readonly number_of_input_data_dependencies: bigint; readonly limit: bigint };
    }
  | { readonly name: "ContractSizeExceeded"; readonly fields: { readonly size: bigint; readonly limit: bigint } }
  | {
      readonly name: "ECRecoverError" | "AltBn128InvalidInput" | "Ed25519VerifyInvalidInput" | "BLS12381InvalidInput" | "P256VerifyInvalidInput" | "MlDsaVerifyInvalidInput";
      readonly fields: { readonly msg: string };
    };

export type HostErrorName = HostError["name"];

const fieldsOf = (e: HostError): Fields | undefined => ("fields" in e ? e.fields : undefined);

/** Rust Debug of the variant, e.g. `GuestPanic { panic_msg: "boom" }`. */
export function hostErrorDebug(e: HostError): string {
  const fields = fieldsOf(e);
  if (fields === undefined) return e.name;
  const parts = Object.entries(fields).map(([k, v]) => `${k}: ${typeof v === "string" ? rustDebugString(v) : v.toString()}`);
  return `${e.name} { ${parts.join(", ")} }`;
}

/** nearcore's Display of the variant: the text of an `ExecutionError`. */
export function hostErrorDisplay(e: HostError): string {
  switch (e.name) {
    case "BadUTF8":
      return "String encoding is bad UTF-8 sequence.";
    case "BadUTF16":
      return "String encoding is bad UTF-16 sequence.";
    case "GasExceeded":
      return "Exceeded the prepaid gas.";
    case "GasLimitExceeded":
      return "Exceeded the maximum amount of gas allowed to burn per contract.";
    case "BalanceExceeded":
      return "Exceeded the account balance.";
    case "EmptyMethodName":
      return "Tried to call an empty method name.";
    case "GuestPanic":
      return `Smart contract panicked: ${e.fields.panic_msg}`;
    case "IntegerOverflow":
      return "Integer overflow.";
    case "InvalidPromiseIndex":
      return `${e.fields.promise_idx} does not correspond to existing promises`;
    case "CannotAppendActionToJointPromise":
      return "Actions can only be appended to non-joint promise.";
    case "CannotReturnJointPromise":
      return "Returning joint promise is currently prohibited.";
    case "CannotSetRefundToOnJointPromise":
      return "Cannot set refund_to on a joint promise.";
    case "InvalidPromiseResultIndex":
      return `Accessed invalid promise result index: ${e.fields.result_idx}`;
    case "InvalidRegisterId":
      return `Accessed invalid register id: ${e.fields.register_id}`;
    case "MemoryAccessViolation":
      return "Accessed memory outside the bounds.";
    case "InvalidReceiptIndex":
      return `VM Logic returned an invalid receipt index: ${e.fields.receipt_index}`;
    case "InvalidActionIndex":
      // set_state_init_data_entry with an index that names no DeterministicStateInit of the
      // promise: variant and wording are shardkit's (nearcore's receipt manager not seen).
      return `Action index ${e.fields.action_index} does not name a DeterministicStateInit action of the promise`;
    case "InvalidAccountId":
      return "VM Logic returned an invalid account id";
    case "InvalidMethodName":
      return "VM Logic returned an invalid method name";
    case "InvalidPublicKey":
      return "VM Logic provided an invalid public key";
    case "ProhibitedInView":
      return `${e.fields.method_name} is not allowed in view calls`;
    case "NumberOfLogsExceeded":
      return `The number of logs will exceed the limit ${e.fields.limit}`;
    case "KeyLengthExceeded":
      return `The length of a storage key ${e.fields.length} exceeds the limit ${e.fields.limit}`;
    case "ValueLengthExceeded":
      return `The length of a storage value ${e.fields.length} exceeds the limit ${e.fields.limit}`;
    case "TotalLogLengthExceeded":
      return `The length of a log message ${e.fields.length} exceeds the limit ${e.fields.limit}`;
    case "NumberPromisesExceeded":
      return `The number of promises within a FunctionCall ${e.fields.number_of_promises} exceeds the limit ${e.fields.limit}`;
    case "NumberInputDataDependenciesExceeded":
      return `The number of input data dependencies ${e.fields.number_of_input_data_dependencies} exceeds the limit ${e.fields.limit}`;
    case "ReturnedValueLengthExceeded":
      return `The length of a returned value ${e.fields.length} exceeds the limit ${e.fields.limit}`;
    case "ContractSizeExceeded":
      return `The size of a contract code in DeployContract action ${e.fields.size} exceeds the limit ${e.fields.limit}`;
    case "Deprecated":
      return `Attempted to call deprecated host function ${e.fields.method_name}`;
    case "AltBn128InvalidInput":
      return `AltBn128 invalid input: ${e.fields.msg}`;
    case "ECRecoverError":
      return `ECDSA recover error: ${e.fields.msg}`;
    case "Ed25519VerifyInvalidInput":
      return `ED25519 signature verification error: ${e.fields.msg}`;
    case "BLS12381InvalidInput":
      return `BLS12-381 invalid input: ${e.fields.msg}`;
    case "P256VerifyInvalidInput":
      // Wording by analogy with Ed25519VerifyInvalidInput (nearcore's text not seen).
      return `P256 signature verification error: ${e.fields.msg}`;
    case "MlDsaVerifyInvalidInput":
      // Wording by analogy with Ed25519VerifyInvalidInput (nearcore's text not seen).
      return `ML-DSA signature verification error: ${e.fields.msg}`;
    case "YieldPayloadLength":
      return `Yield resume payload is ${e.fields.length} bytes which exceeds the ${e.fields.limit} byte limit`;
    case "DataIdMalformed":
      return "yield resumption token is malformed";
    case "YieldIdMalformed":
      // Wording by analogy with DataIdMalformed (nearcore's text not seen).
      return "yield id is malformed";
    case "ContractCodeHashMalformed":
      return "contract code hash is malformed";
  }
}

/**
 * Thrown by host functions and the gas counter; it unwinds through the guest's wasm frames
 * and the runner turns it into `FunctionCallError::HostError`.
 */
export class HostErrorThrow extends ShardkitError<"HOST_ERROR"> {
  override readonly name = "HostErrorThrow";
  constructor(readonly hostError: HostError) {
    super("HOST_ERROR", hostErrorDisplay(hostError));
  }
}

export function hostError(e: HostError): HostErrorThrow {
  return new HostErrorThrow(e);
}
