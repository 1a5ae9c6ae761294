import { base58Encode } from "@shardkit/primitives/base58";
import { base64Encode } from "../primitives/base64.js";
import type { AccessKeyPermissionWithGasKeys } from "@shardkit/primitives/accessKeyWithGasKeys";
import type { Action } from "@shardkit/primitives/action";
import {
  addKeyJson,
  functionCallPermissionJson,
  gasKeyInfoJson,
  stateInitDataJson,
  toDelegateActionJson,
  toDelegatePayloadJson,
  toSameFormActionJson,
  type DelegateActionJson,
  type DelegateActionV2Json,
  type FunctionCallPermissionJson,
  type GasKeyInfoJson,
  type SameFormActionJson,
} from "./actionJson.js";
import { formatSignature } from "@shardkit/primitives/signature";

/*
 * nearcore `ActionView` (core/primitives/src/views.rs), the action shape in transaction
 * views: externally tagged, CreateAccount a bare string, u64 → number, u128 → decimal
 * string, bytes → base64, hashes → base58. Global contract actions are split by mode
 * (…ByAccountId), and DeterministicStateInit is flattened to {code, data, deposit}.
 */

/** AccessKeyPermissionView: gas-key variants flatten GasKeyInfo into the object. */
export type AccessKeyPermissionView =
  | "FullAccess"
  | { FunctionCall: FunctionCallPermissionJson }
  | { GasKeyFunctionCall: GasKeyInfoJson & FunctionCallPermissionJson }
  | { GasKeyFullAccess: GasKeyInfoJson };

export interface AccessKeyView {
  nonce: number;
  permission: AccessKeyPermissionView;
}

/** GlobalContractIdentifierView (current form; older nodes sent a bare string). */
export type GlobalContractIdentifierView = { hash: string } | { account_id: string };

export type ActionView =
  | SameFormActionJson
  | "CreateAccount"
  | { AddKey: { public_key: string; access_key: AccessKeyView } }
  | { Delegate: { delegate_action: DelegateActionJson; signature: string } }
  | { DeployGlobalContract: { code: string } }
  | { DeployGlobalContractByAccountId: { code: string } }
  | { UseGlobalContract: { code_hash: string } }
  | { UseGlobalContractByAccountId: { account_id: string } }
  | {
      DeterministicStateInit: {
        code: GlobalContractIdentifierView;
        data: Record<string, string>;
        deposit: string;
      };
    }
  | { DelegateV2: { delegate_action: { V2: DelegateActionV2Json }; signature: string } };

export function toAccessKeyPermissionView(p: AccessKeyPermissionWithGasKeys): AccessKeyPermissionView {
  if (p === "FullAccess") return "FullAccess";
  if ("FunctionCall" in p) return { FunctionCall: functionCallPermissionJson(p.FunctionCall) };
  if ("GasKeyFunctionCall" in p) {
    const g = p.GasKeyFunctionCall;
    return {
      GasKeyFunctionCall: { ...gasKeyInfoJson(g.gasKeyInfo), ...functionCallPermissionJson(g.functionCall) },
    };
  }
  return { GasKeyFullAccess: gasKeyInfoJson(p.GasKeyFullAccess) };
}

/** The ActionView JSON of one action (those whose serde form is the same come from actionJson.ts). */
export function toActionView(a: Action): ActionView {
  switch (a.type) {
    case "CreateAccount":
      return "CreateAccount";
    case "AddKey":
      return addKeyJson(a, toAccessKeyPermissionView(a.accessKey.permission));
    case "Delegate":
      return {
        Delegate: {
          delegate_action: toDelegateActionJson(a.delegateAction),
          signature: formatSignature(a.signature),
        },
      };
    case "DeployGlobalContract":
      return a.deployMode === "CodeHash"
        ? { DeployGlobalContract: { code: base64Encode(a.code) } }
        : { DeployGlobalContractByAccountId: { code: base64Encode(a.code) } };
    case "UseGlobalContract": {
      const id = a.contractIdentifier;
      return id.kind === "CodeHash"
        ? { UseGlobalContract: { code_hash: base58Encode(id.codeHash) } }
        : { UseGlobalContractByAccountId: { account_id: id.accountId } };
    }
    case "DeterministicStateInit": {
      const code = a.stateInit.code;
      return {
        DeterministicStateInit: {
          code:
            code.kind === "CodeHash" ? { hash: base58Encode(code.codeHash) } : { account_id: code.accountId },
          data: stateInitDataJson(a.stateInit),
          deposit: a.deposit.toString(),
        },
      };
    }
    case "DelegateV2":
      return {
        DelegateV2: {
          delegate_action: toDelegatePayloadJson(a.payload),
          signature: formatSignature(a.signature),
        },
      };
    default:
      return toSameFormActionJson(a);
  }
}
