import type {
  Action,
  AddKeyAction,
  CreateAccountAction,
  DeleteAccountAction,
  DeleteKeyAction,
  DeployContractAction,
  DeployGlobalContractAction,
  DeterministicAccountStateInit,
  DeterministicStateInitAction,
  FunctionCallAction,
  GlobalContractDeployMode,
  GlobalContractIdentifier,
  StakeAction,
  TransferAction,
  TransferToGasKeyAction,
  UseGlobalContractAction,
  WithdrawFromGasKeyAction,
} from "@shardkit/primitives/action";
import { compareBytes } from "@shardkit/primitives/actionCodec";
import { base58Decode } from "@shardkit/primitives/base58";
import { deriveDeterministicAccountId } from "@shardkit/primitives/deterministicAccountId";
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

/**
 * Publishes `code` as a global contract: under its sha256 code hash (immutable, "CodeHash", the
 * default) or under the signer's account id ("AccountId", which the signer may redeploy).
 */
export function deployGlobalContract(code: Uint8Array, deployMode: GlobalContractDeployMode = "CodeHash"): DeployGlobalContractAction {
  return { type: "DeployGlobalContract", code, deployMode };
}

/** Which global contract: by its code hash (32 bytes or base58) or by the account that published it. */
export type GlobalContractRef = { readonly codeHash: Uint8Array | string } | { readonly accountId: string };

function globalContract(ref: GlobalContractRef): GlobalContractIdentifier {
  if ("accountId" in ref) return { kind: "AccountId", accountId: ref.accountId };
  return { kind: "CodeHash", codeHash: typeof ref.codeHash === "string" ? base58Decode(ref.codeHash) : ref.codeHash };
}

/** Makes the receiver's code a global contract (its storage is not charged for the code). */
export function useGlobalContract(ref: GlobalContractRef): UseGlobalContractAction {
  return { type: "UseGlobalContract", contractIdentifier: globalContract(ref) };
}

const utf8 = (value: Uint8Array | string) => (typeof value === "string" ? new TextEncoder().encode(value) : value);

/**
 * A NEP-616 state init: a global contract and the account's initial storage (string keys and
 * values as UTF-8). The entries are sorted by key bytes, as the borsh BTreeMap nearcore hashes.
 */
export function stateInit(code: GlobalContractRef, data: Iterable<readonly [Uint8Array | string, Uint8Array | string]> = []): DeterministicAccountStateInit {
  const entries = [...data].map(([k, v]) => [utf8(k), utf8(v)] as const).sort(([a], [b]) => compareBytes(a, b));
  return { version: "V1", code: globalContract(code), data: entries };
}

/** The account id `init` can only be created on ("0s" + 40 hex): the receiver of its DeterministicStateInit. */
export function deterministicAccountId(init: DeterministicAccountStateInit): string {
  return deriveDeterministicAccountId(init);
}

/**
 * Creates the deterministic account of `init` (send it to deterministicAccountId(init)) with
 * `deposit` yoctoNEAR; the part beyond its storage cost is refunded. Nothing happens to an
 * account that already exists but the refund.
 */
export function deterministicStateInit(init: DeterministicAccountStateInit, deposit: bigint): DeterministicStateInitAction {
  return { type: "DeterministicStateInit", stateInit: init, deposit };
}

/** Moves `deposit` yoctoNEAR from the account's balance into the prepaid balance of its gas key `publicKey`. */
export function transferToGasKey(publicKey: PublicKey | string, deposit: bigint): TransferToGasKeyAction {
  return { type: "TransferToGasKey", publicKey: key(publicKey), deposit };
}

/** Moves `amount` yoctoNEAR from the gas key `publicKey` back to the account's balance. */
export function withdrawFromGasKey(publicKey: PublicKey | string, amount: bigint): WithdrawFromGasKeyAction {
  return { type: "WithdrawFromGasKey", publicKey: key(publicKey), amount };
}

/** A full-access gas key with `numNonces` parallel nonces (its balance starts at 0: fund it with transferToGasKey). */
export function addGasKey(publicKey: PublicKey | string, numNonces: number): AddKeyAction {
  return { type: "AddKey", publicKey: key(publicKey), accessKey: { nonce: 0n, permission: { GasKeyFullAccess: { balance: 0n, numNonces } } } };
}
