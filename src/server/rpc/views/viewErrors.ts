import type { RpcFunctionCallError } from "../../../../generated/rpc/types.js";
import { RpcError, type BlockPoint } from "../../errors.js";
import { enumDebug } from "./rustDebug.js";

/** `EXPERIMENTAL_view_access_key` for a key the account does not have (nearcore's UnknownAccessKey). */
export class UnknownAccessKeyError extends RpcError<"UNKNOWN_ACCESS_KEY"> {
  constructor(publicKey: string, at: BlockPoint) {
    super("UNKNOWN_ACCESS_KEY", { public_key: publicKey, ...at }, `Access key for public key ${publicKey} has never been observed on the node`);
  }
}

/** A gas key the account does not have (nearcore's UnknownGasKey; the message differs per method). */
export class UnknownGasKeyError extends RpcError<"UNKNOWN_GAS_KEY"> {
  constructor(publicKey: string, at: BlockPoint, message: string) {
    super("UNKNOWN_GAS_KEY", { public_key: publicKey, ...at }, message);
  }
}

/** `EXPERIMENTAL_call_function` whose call failed (nearcore's ContractExecutionError). */
export class ContractExecutionError extends RpcError<"CONTRACT_EXECUTION_ERROR"> {
  constructor(vmError: RpcFunctionCallError, at: BlockPoint) {
    super("CONTRACT_EXECUTION_ERROR", { vm_error: vmError, ...at }, `Function call returned an error: ${enumDebug(vmError)}`);
  }
}
