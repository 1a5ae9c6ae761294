import type { PublicKey } from "./publicKey.js";
import type { AccessKeyWithGasKeys } from "./accessKeyWithGasKeys.js";
import type { Signature } from "./signature.js";
import type { TransactionNonce } from "./transactionNonce.js";

/**
 * The actions of a transaction, one variant per nearcore `Action` borsh tag (given with each
 * variant). u64/u128 amounts are bigint; byte strings are Uint8Array; account ids are
 * strings that passed nearcore's account id rules.
 */
export type Action =
  | CreateAccountAction
  | DeployContractAction
  | FunctionCallAction
  | TransferAction
  | StakeAction
  | AddKeyAction
  | DeleteKeyAction
  | DeleteAccountAction
  | SignedDelegateAction
  | DeployGlobalContractAction
  | UseGlobalContractAction
  | DeterministicStateInitAction
  | TransferToGasKeyAction
  | WithdrawFromGasKeyAction
  | VersionedSignedDelegateAction;

export type ActionType = Action["type"];

/** An action allowed inside a delegate action: anything but the two delegate kinds. */
export type NonDelegateAction = Exclude<Action, { readonly type: "Delegate" | "DelegateV2" }>;

/** Borsh tag of each action variant. */
export const ACTION_TAG = {
  CreateAccount: 0,
  DeployContract: 1,
  FunctionCall: 2,
  Transfer: 3,
  Stake: 4,
  AddKey: 5,
  DeleteKey: 6,
  DeleteAccount: 7,
  Delegate: 8,
  DeployGlobalContract: 9,
  UseGlobalContract: 10,
  DeterministicStateInit: 11,
  TransferToGasKey: 12,
  WithdrawFromGasKey: 13,
  DelegateV2: 14,
} as const satisfies Record<ActionType, number>;

/** 0 */
export interface CreateAccountAction {
  readonly type: "CreateAccount";
}
/** 1 */
export interface DeployContractAction {
  readonly type: "DeployContract";
  readonly code: Uint8Array;
}
/** 2 */
export interface FunctionCallAction {
  readonly type: "FunctionCall";
  readonly methodName: string;
  readonly args: Uint8Array;
  readonly gas: bigint;
  readonly deposit: bigint;
}
/** 3 */
export interface TransferAction {
  readonly type: "Transfer";
  readonly deposit: bigint;
}
/** 4 */
export interface StakeAction {
  readonly type: "Stake";
  readonly stake: bigint;
  readonly publicKey: PublicKey;
}
/** 5 */
export interface AddKeyAction {
  readonly type: "AddKey";
  readonly publicKey: PublicKey;
  readonly accessKey: AccessKeyWithGasKeys;
}
/** 6 */
export interface DeleteKeyAction {
  readonly type: "DeleteKey";
  readonly publicKey: PublicKey;
}
/** 7 */
export interface DeleteAccountAction {
  readonly type: "DeleteAccount";
  readonly beneficiaryId: string;
}

/** NEP-366 meta-transaction body, signed under the 2^30+366 discriminant. */
export interface DelegateAction {
  readonly senderId: string;
  readonly receiverId: string;
  readonly actions: readonly NonDelegateAction[];
  readonly nonce: bigint;
  readonly maxBlockHeight: bigint;
  readonly publicKey: PublicKey;
}
/** 8: SignedDelegateAction. */
export interface SignedDelegateAction {
  readonly type: "Delegate";
  readonly delegateAction: DelegateAction;
  readonly signature: Signature;
}

/** How a global contract is published: under its code hash (immutable) or the signer's account. */
export type GlobalContractDeployMode = "CodeHash" | "AccountId";
/** 9 */
export interface DeployGlobalContractAction {
  readonly type: "DeployGlobalContract";
  readonly code: Uint8Array;
  readonly deployMode: GlobalContractDeployMode;
}

/** GlobalContractIdentifier: borsh tag 0 CodeHash([u8; 32]), 1 AccountId. */
export type GlobalContractIdentifier =
  | { readonly kind: "CodeHash"; readonly codeHash: Uint8Array }
  | { readonly kind: "AccountId"; readonly accountId: string };
/** 10 */
export interface UseGlobalContractAction {
  readonly type: "UseGlobalContract";
  readonly contractIdentifier: GlobalContractIdentifier;
}

/**
 * DeterministicAccountStateInit (NEP-616), only version V1 (borsh tag 0) exists. `data` is
 * a BTreeMap<Vec<u8>, Vec<u8>> in nearcore: here its entries, strictly ascending by key bytes.
 */
export interface DeterministicAccountStateInit {
  readonly version: "V1";
  readonly code: GlobalContractIdentifier;
  readonly data: readonly (readonly [key: Uint8Array, value: Uint8Array])[];
}
/** 11 */
export interface DeterministicStateInitAction {
  readonly type: "DeterministicStateInit";
  readonly stateInit: DeterministicAccountStateInit;
  readonly deposit: bigint;
}
/** 12 */
export interface TransferToGasKeyAction {
  readonly type: "TransferToGasKey";
  readonly publicKey: PublicKey;
  readonly deposit: bigint;
}
/** 13 */
export interface WithdrawFromGasKeyAction {
  readonly type: "WithdrawFromGasKey";
  readonly publicKey: PublicKey;
  readonly amount: bigint;
}

/** Gas-key capable delegate body: like {@link DelegateAction} with a {@link TransactionNonce}. */
export interface DelegateActionV2 {
  readonly senderId: string;
  readonly receiverId: string;
  readonly actions: readonly NonDelegateAction[];
  readonly nonce: TransactionNonce;
  readonly maxBlockHeight: bigint;
  readonly publicKey: PublicKey;
}
/**
 * VersionedDelegateActionPayload: borsh enum whose only variant is V2 (tag 0). The tag is
 * part of the signed bytes, so a signature cannot be replayed across versions.
 */
export interface VersionedDelegateActionPayload {
  readonly version: "V2";
  readonly delegateAction: DelegateActionV2;
}
/** 14: VersionedSignedDelegateAction. */
export interface VersionedSignedDelegateAction {
  readonly type: "DelegateV2";
  readonly payload: VersionedDelegateActionPayload;
  readonly signature: Signature;
}
