import type {
  Action,
  AddKeyAction,
  CreateAccountAction,
  DeleteAccountAction,
  DeleteKeyAction,
  DeployContractAction,
  FunctionCallAction,
  StakeAction,
  TransferAction,
} from "@shardkit/primitives/action";
import { parsePublicKey, type PublicKey } from "@shardkit/primitives/publicKey";

// Builders for the common actions. They build the same Action values the shardkit node
// decodes (src/chain/transaction/action.ts), encoded by the same Borsh codec.

export type { Action, PublicKey };

/** 30 Tgas, a usual budget for a simple function call. */
export const DEFAULT_FUNCTION_CALL_GAS = 30_000_000_000_000n;

const key = (k: PublicKey | string): PublicKey => (typeof k === "string" ? parsePublicKey(k) : k);

export function createAccount(): CreateAccountAction {
  return { type: "CreateAccount" };
}

export function deployContract(code: Uint8Array): DeployContractAction {
  return { type: "DeployContract", code };
}

/** `args` as bytes, or any JSON value (sent as its UTF-8 JSON text). */
export function functionCall(
  methodName: string,
  args: Uint8Array | unknown,
  options: { gas?: bigint; deposit?: bigint } = {},
): FunctionCallAction {
  const bytes = args instanceof Uint8Array ? args : new TextEncoder().encode(JSON.stringify(args));
  return {
    type: "FunctionCall",
    methodName,
    args: bytes,
    gas: options.gas ?? DEFAULT_FUNCTION_CALL_GAS,
    deposit: options.deposit ?? 0n,
  };
}

/** Sends `deposit` yoctoNEAR. */
export function transfer(deposit: bigint): TransferAction {
  return { type: "Transfer", deposit };
}

export function stake(amount: bigint, publicKey: PublicKey | string): StakeAction {
  return { type: "Stake", stake: amount, publicKey: key(publicKey) };
}

export function addFullAccessKey(publicKey: PublicKey | string): AddKeyAction {
  return { type: "AddKey", publicKey: key(publicKey), accessKey: { nonce: 0n, permission: "FullAccess" } };
}

/** A key that may only call `methodNames` (all when empty) on `receiverId`, spending at most `allowance` on gas. */
export function addFunctionCallKey(
  publicKey: PublicKey | string,
  receiverId: string,
  methodNames: readonly string[] = [],
  allowance: bigint | null = null,
): AddKeyAction {
  return {
    type: "AddKey",
    publicKey: key(publicKey),
    accessKey: { nonce: 0n, permission: { FunctionCall: { allowance, receiverId, methodNames } } },
  };
}

export function deleteKey(publicKey: PublicKey | string): DeleteKeyAction {
  return { type: "DeleteKey", publicKey: key(publicKey) };
}

export function deleteAccount(beneficiaryId: string): DeleteAccountAction {
  return { type: "DeleteAccount", beneficiaryId };
}
