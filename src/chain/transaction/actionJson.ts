import type { FunctionCallPermission } from "@shardkit/primitives/accessKey";
import { base58Encode } from "@shardkit/primitives/base58";
import { base64Encode } from "../primitives/base64.js";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import type { AccessKeyPermissionWithGasKeys, GasKeyInfo } from "@shardkit/primitives/accessKeyWithGasKeys";
import type {
  AddKeyAction,
  DelegateAction,
  DeterministicAccountStateInit,
  GlobalContractIdentifier,
  NonDelegateAction,
  VersionedDelegateActionPayload,
} from "@shardkit/primitives/action";
import type { TransactionNonce } from "@shardkit/primitives/transactionNonce";

/*
 * nearcore's *serde* form of `Action` (derived, externally tagged), which is not the
 * ActionView form: `ActionView::Delegate` embeds the raw `DelegateAction`, whose actions are
 * `NonDelegateAction`s serialized as `Action`. So inside a delegate view CreateAccount is
 * {"CreateAccount":{}} and global contracts keep `deploy_mode` / `contract_identifier`.
 * u64 → JSON number (like the rest of the RPC; exact only up to 2^53), u128 → decimal string.
 */

export interface FunctionCallPermissionJson {
  allowance: string | null;
  receiver_id: string;
  method_names: string[];
}
export interface GasKeyInfoJson {
  balance: string;
  num_nonces: number;
}
/** `GasKeyFunctionCall` is a tuple variant in nearcore, hence a two-element array. */
export type AccessKeyPermissionJson =
  | "FullAccess"
  | { FunctionCall: FunctionCallPermissionJson }
  | { GasKeyFunctionCall: [GasKeyInfoJson, FunctionCallPermissionJson] }
  | { GasKeyFullAccess: GasKeyInfoJson };
export type GlobalContractIdentifierJson = { CodeHash: string } | { AccountId: string };
export type TransactionNonceJson =
  { Nonce: { nonce: number } } | { GasKeyNonce: { nonce: number; nonce_index: number } };

/**
 * The actions whose serde `Action` JSON and `ActionView` JSON are the same, so one renderer
 * ({@link toSameFormActionJson}) serves both forms.
 */
export type SameFormAction = Extract<
  NonDelegateAction,
  {
    readonly type:
      | "DeployContract"
      | "FunctionCall"
      | "Transfer"
      | "Stake"
      | "DeleteKey"
      | "DeleteAccount"
      | "TransferToGasKey"
      | "WithdrawFromGasKey";
  }
>;
export type SameFormActionJson =
  | { DeployContract: { code: string } }
  | { FunctionCall: { method_name: string; args: string; gas: number; deposit: string } }
  | { Transfer: { deposit: string } }
  | { Stake: { stake: string; public_key: string } }
  | { DeleteKey: { public_key: string } }
  | { DeleteAccount: { beneficiary_id: string } }
  | { TransferToGasKey: { public_key: string; deposit: string } }
  | { WithdrawFromGasKey: { public_key: string; amount: string } };

/** AddKey has the same shape in both forms; only its permission is rendered differently. */
export interface AddKeyJson<Permission> {
  AddKey: { public_key: string; access_key: { nonce: number; permission: Permission } };
}

export type ActionJson =
  | SameFormActionJson
  | { CreateAccount: Record<string, never> }
  | AddKeyJson<AccessKeyPermissionJson>
  | { DeployGlobalContract: { code: string; deploy_mode: "CodeHash" | "AccountId" } }
  | { UseGlobalContract: { contract_identifier: GlobalContractIdentifierJson } }
  | {
      DeterministicStateInit: {
        state_init: { V1: { code: GlobalContractIdentifierJson; data: Record<string, string> } };
        deposit: string;
      };
    };

export interface DelegateActionJson {
  sender_id: string;
  receiver_id: string;
  actions: ActionJson[];
  nonce: number;
  max_block_height: number;
  public_key: string;
}
export interface DelegateActionV2Json {
  sender_id: string;
  receiver_id: string;
  actions: ActionJson[];
  nonce: TransactionNonceJson;
  max_block_height: number;
  public_key: string;
}

export function functionCallPermissionJson(p: FunctionCallPermission): FunctionCallPermissionJson {
  return {
    allowance: p.allowance === null ? null : p.allowance.toString(),
    receiver_id: p.receiverId,
    method_names: [...p.methodNames],
  };
}

export function gasKeyInfoJson(info: GasKeyInfo): GasKeyInfoJson {
  return { balance: info.balance.toString(), num_nonces: info.numNonces };
}

/** AccessKeyPermission in raw serde form (actions, genesis records): GasKeyFunctionCall is a tuple. */
export function permissionJson(p: AccessKeyPermissionWithGasKeys): AccessKeyPermissionJson {
  if (p === "FullAccess") return "FullAccess";
  if ("FunctionCall" in p) return { FunctionCall: functionCallPermissionJson(p.FunctionCall) };
  if ("GasKeyFunctionCall" in p) {
    const g = p.GasKeyFunctionCall;
    return { GasKeyFunctionCall: [gasKeyInfoJson(g.gasKeyInfo), functionCallPermissionJson(g.functionCall)] };
  }
  return { GasKeyFullAccess: gasKeyInfoJson(p.GasKeyFullAccess) };
}

function globalContractIdentifierJson(id: GlobalContractIdentifier): GlobalContractIdentifierJson {
  return id.kind === "CodeHash" ? { CodeHash: base58Encode(id.codeHash) } : { AccountId: id.accountId };
}

/** BTreeMap<Vec<u8>, Vec<u8>> as serde_with renders it: an object of base64 → base64, in key order. */
export function stateInitDataJson(s: DeterministicAccountStateInit): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of s.data) out[base64Encode(k)] = base64Encode(v);
  return out;
}

export function transactionNonceJson(n: TransactionNonce): TransactionNonceJson {
  return n.kind === "Nonce"
    ? { Nonce: { nonce: Number(n.nonce) } }
    : { GasKeyNonce: { nonce: Number(n.nonce), nonce_index: n.nonceIndex } };
}

/** The JSON of an action whose serde and ActionView forms agree (see {@link SameFormAction}). */
export function toSameFormActionJson(a: SameFormAction): SameFormActionJson {
  switch (a.type) {
    case "DeployContract":
      return { DeployContract: { code: base64Encode(a.code) } };
    case "FunctionCall":
      return {
        FunctionCall: {
          method_name: a.methodName,
          args: base64Encode(a.args),
          gas: Number(a.gas),
          deposit: a.deposit.toString(),
        },
      };
    case "Transfer":
      return { Transfer: { deposit: a.deposit.toString() } };
    case "Stake":
      return { Stake: { stake: a.stake.toString(), public_key: formatPublicKey(a.publicKey) } };
    case "DeleteKey":
      return { DeleteKey: { public_key: formatPublicKey(a.publicKey) } };
    case "DeleteAccount":
      return { DeleteAccount: { beneficiary_id: a.beneficiaryId } };
    case "TransferToGasKey":
      return {
        TransferToGasKey: { public_key: formatPublicKey(a.publicKey), deposit: a.deposit.toString() },
      };
    case "WithdrawFromGasKey":
      return {
        WithdrawFromGasKey: { public_key: formatPublicKey(a.publicKey), amount: a.amount.toString() },
      };
  }
}

/** AddKey in either form, given its permission already rendered in that form. */
export function addKeyJson<Permission>(a: AddKeyAction, permission: Permission): AddKeyJson<Permission> {
  return {
    AddKey: {
      public_key: formatPublicKey(a.publicKey),
      access_key: { nonce: Number(a.accessKey.nonce), permission },
    },
  };
}

/** serde JSON of one non-delegate Action. */
export function toActionJson(a: NonDelegateAction): ActionJson {
  switch (a.type) {
    case "CreateAccount":
      return { CreateAccount: {} };
    case "AddKey":
      return addKeyJson(a, permissionJson(a.accessKey.permission));
    case "DeployGlobalContract":
      return { DeployGlobalContract: { code: base64Encode(a.code), deploy_mode: a.deployMode } };
    case "UseGlobalContract":
      return {
        UseGlobalContract: { contract_identifier: globalContractIdentifierJson(a.contractIdentifier) },
      };
    case "DeterministicStateInit":
      return {
        DeterministicStateInit: {
          state_init: {
            V1: {
              code: globalContractIdentifierJson(a.stateInit.code),
              data: stateInitDataJson(a.stateInit),
            },
          },
          deposit: a.deposit.toString(),
        },
      };
    default:
      return toSameFormActionJson(a);
  }
}

/** serde JSON of a DelegateAction (what `ActionView::Delegate.delegate_action` holds). */
export function toDelegateActionJson(d: DelegateAction): DelegateActionJson {
  return {
    sender_id: d.senderId,
    receiver_id: d.receiverId,
    actions: d.actions.map(toActionJson),
    nonce: Number(d.nonce),
    max_block_height: Number(d.maxBlockHeight),
    public_key: formatPublicKey(d.publicKey),
  };
}

/** serde JSON of a VersionedDelegateActionPayload: {"V2": {...}}. */
export function toDelegatePayloadJson(p: VersionedDelegateActionPayload): { V2: DelegateActionV2Json } {
  const d = p.delegateAction;
  return {
    V2: {
      sender_id: d.senderId,
      receiver_id: d.receiverId,
      actions: d.actions.map(toActionJson),
      nonce: transactionNonceJson(d.nonce),
      max_block_height: Number(d.maxBlockHeight),
      public_key: formatPublicKey(d.publicKey),
    },
  };
}
