import { isValidAccountId } from "@shardkit/primitives/accountId";
import { deriveDeterministicAccountId } from "@shardkit/primitives/deterministicAccountId";
import { KeyType, formatPublicKey } from "@shardkit/primitives/publicKey";
import { functionCallPermissionOf, gasKeyInfoOf } from "@shardkit/primitives/accessKey";
import type { Action } from "../transaction/index.js";
import { delegateBodyOf } from "./delegateBody.js";
import { MAX_NONCES_FOR_GAS_KEY } from "./gasKeys.js";
import type { ActionsValidationErrorJson } from "./invalidTxError.js";
import { U64_MAX } from "../primitives/integerLimits.js";
import type { RuntimeParameters } from "./parameters.js";
import { at } from "../must.js";
import { isEnabled } from "./protocolFeature.js";

const utf8Length = (s: string): number => Buffer.byteLength(s, "utf8");

/**
 * nearcore verifier.rs `validate_actions`: the action count, DeleteAccount last, at most one
 * Delegate or DelegateV2, each action's own limits (in order), then the total attached gas.
 * `receiverId` is the receiver of the transaction or receipt (a DeterministicStateInit must be
 * sent to the id its state init derives).
 */
export function validateActions(
  p: RuntimeParameters,
  actions: readonly Action[],
  receiverId: string,
  protocolVersion: number,
): ActionsValidationErrorJson | undefined {
  const limits = p.limits;
  if (actions.length > limits.maxActionsPerReceipt) {
    return { TotalNumberOfActionsExceeded: { total_number_of_actions: actions.length, limit: limits.maxActionsPerReceipt } };
  }
  const deploys = actions.filter((a) => a.type === "DeployContract" || a.type === "DeployGlobalContract").length;
  if (deploys > limits.maxDeployActionsPerReceipt) {
    return { TotalNumberOfDeployActionsExceeded: { number_of_deploy_actions: deploys, limit: limits.maxDeployActionsPerReceipt } };
  }
  // Counted over the whole receipt (delegated actions too): a receipt may repeat one state init.
  const entries = actions.reduce((n, a) => n + stateInitEntriesOf(a), 0);
  if (entries > limits.maxStateInitEntries) {
    return { TotalNumberOfStateInitEntriesExceeded: { number_of_entries: entries, limit: limits.maxStateInitEntries } };
  }
  let foundDelegate = false;
  for (let i = 0; i < actions.length; i++) {
    const a = at(actions, i);
    if (a.type === "DeleteAccount") {
      if (i + 1 < actions.length) return "DeleteActionMustBeFinal";
    } else if (a.type === "Delegate" || a.type === "DelegateV2") {
      if (foundDelegate) return "DelegateActionMustBeOnlyOne";
      foundDelegate = true;
    }
    const err = validateAction(p, a, receiverId, protocolVersion);
    if (err !== undefined) return err;
  }
  let total = 0n;
  for (const a of actions) total += prepaidGasOf(a);
  if (total > U64_MAX) return "IntegerOverflow";
  if (total > limits.maxTotalPrepaidGas) {
    return { TotalPrepaidGasExceeded: { total_prepaid_gas: Number(total), limit: Number(limits.maxTotalPrepaidGas) } };
  }
  return undefined;
}

function stateInitEntriesOf(a: Action): number {
  if (a.type === "DeterministicStateInit") return a.stateInit.data.length;
  const d = delegateBodyOf(a);
  return d === undefined ? 0 : d.actions.reduce((n, x) => n + stateInitEntriesOf(x), 0);
}

function prepaidGasOf(a: Action): bigint {
  if (a.type === "FunctionCall") return a.gas;
  const d = delegateBodyOf(a);
  if (d !== undefined) return d.actions.reduce((n, x) => n + prepaidGasOf(x), 0n);
  return 0n;
}

function validateAction(p: RuntimeParameters, a: Action, receiverId: string, protocolVersion: number): ActionsValidationErrorJson | undefined {
  const limits = p.limits;
  switch (a.type) {
    case "DeployContract":
    case "DeployGlobalContract":
      if (a.code.length > limits.maxContractSize) {
        return { ContractSizeExceeded: { size: a.code.length, limit: limits.maxContractSize } };
      }
      return undefined;
    case "FunctionCall": {
      if (a.gas === 0n) return "FunctionCallZeroAttachedGas";
      if (a.methodName === "" && isEnabled("RejectEmptyMethodName", protocolVersion)) return "FunctionCallEmptyMethodName";
      const nameLength = utf8Length(a.methodName);
      if (nameLength > limits.maxLengthMethodName) {
        return { FunctionCallMethodNameLengthExceeded: { length: nameLength, limit: limits.maxLengthMethodName } };
      }
      if (a.args.length > limits.maxArgumentsLength) {
        return { FunctionCallArgumentsLengthExceeded: { length: a.args.length, limit: limits.maxArgumentsLength } };
      }
      return undefined;
    }
    case "Stake":
      // nearcore `is_valid_staking_key`: only ed25519 keys can stake (it also checks that the
      // key converts to a curve point, which we do not verify).
      if (a.publicKey.keyType !== KeyType.ED25519) return { UnsuitableStakingKey: { public_key: formatPublicKey(a.publicKey) } };
      return undefined;
    case "AddKey": {
      const permission = a.accessKey.permission;
      const fc = functionCallPermissionOf(permission);
      if (fc !== undefined) {
        // account_id_validity_rules_version >= 1: the receiver must be a valid account id;
        // nearcore truncates the echoed id to 2 × 64 bytes.
        if (!isValidAccountId(fc.receiverId)) return { InvalidAccountId: { account_id: fc.receiverId.slice(0, 128) } };
        let totalBytes = 0;
        for (const name of fc.methodNames) {
          const length = utf8Length(name);
          if (length > limits.maxLengthMethodName) {
            return { AddKeyMethodNameLengthExceeded: { length, limit: limits.maxLengthMethodName } };
          }
          totalBytes += length + 1; // nearcore counts a terminating byte per name
        }
        if (totalBytes > limits.maxNumberBytesMethodNames) {
          return {
            AddKeyMethodNamesNumberOfBytesExceeded: { total_number_of_bytes: totalBytes, limit: limits.maxNumberBytesMethodNames },
          };
        }
      }
      return validateGasKey(permission);
    }
    case "DeleteAccount":
      if (!isValidAccountId(a.beneficiaryId)) return { InvalidAccountId: { account_id: a.beneficiaryId } };
      return undefined;
    case "Delegate":
    case "DelegateV2": {
      if (a.type === "DelegateV2" && isEnabled("RejectDelegateV2", protocolVersion)) {
        return { RemovedProtocolFeature: { protocol_feature: "DelegateV2", version: protocolVersion } };
      }
      const d = delegateBodyOf(a);
      if (isEnabled("RejectWithdrawFromGasKeyInDelegate", protocolVersion) && d.actions.some((x) => x.type === "WithdrawFromGasKey")) {
        return "WithdrawFromGasKeyNotAllowedInDelegate";
      }
      // Before FixDelegatedDeterministicStateInit nearcore checked inner actions against the
      // outer receiver (so a delegated state init could never pass).
      const inner = isEnabled("FixDelegatedDeterministicStateInit", protocolVersion) ? d.receiverId : receiverId;
      return validateActions(p, d.actions, inner, protocolVersion);
    }
    case "DeterministicStateInit":
      return validateDeterministicStateInit(p, a, receiverId, protocolVersion);
    default:
      return undefined;
  }
}

/**
 * nearcore action_validation.rs `validate_add_key_action`, gas-key part (after the permission
 * checks): no allowance on a function-call gas key, 1..=1024 nonces, a zero starting balance.
 */
function validateGasKey(permission: Extract<Action, { type: "AddKey" }>["accessKey"]["permission"]): ActionsValidationErrorJson | undefined {
  const info = gasKeyInfoOf(permission);
  if (info === undefined) return undefined;
  const allowance = functionCallPermissionOf(permission)?.allowance;
  if (allowance !== undefined && allowance !== null) return "GasKeyFunctionCallAllowanceNotAllowed";
  if (info.numNonces === 0 || info.numNonces > MAX_NONCES_FOR_GAS_KEY) {
    return { GasKeyInvalidNumNonces: { requested_nonces: info.numNonces, limit: MAX_NONCES_FOR_GAS_KEY } };
  }
  if (info.balance !== 0n) return { AddGasKeyWithNonZeroBalance: { balance: info.balance.toString() } };
  return undefined;
}

/**
 * nearcore action_validation.rs `validate_deterministic_state_init`: an account-id identifier
 * must be valid, the receiver must be the derived id, and each entry must fit the storage key
 * and value limits.
 */
function validateDeterministicStateInit(
  p: RuntimeParameters,
  a: Extract<Action, { type: "DeterministicStateInit" }>,
  receiverId: string,
  protocolVersion: number,
): ActionsValidationErrorJson | undefined {
  if (!isEnabled("DeterministicAccountIds", protocolVersion)) {
    return { UnsupportedProtocolFeature: { protocol_feature: "DeterministicAccountIds", version: protocolVersion } };
  }
  const code = a.stateInit.code;
  if (code.kind === "AccountId" && !isValidAccountId(code.accountId)) return { InvalidAccountId: { account_id: code.accountId } };
  const derivedId = deriveDeterministicAccountId(a.stateInit);
  if (derivedId !== receiverId) {
    return { InvalidDeterministicStateInitReceiver: { receiver_id: receiverId, derived_id: derivedId } };
  }
  for (const [key, value] of a.stateInit.data) {
    if (BigInt(key.length) > p.wasm.maxLengthStorageKey) {
      return { DeterministicStateInitKeyLengthExceeded: { length: key.length, limit: Number(p.wasm.maxLengthStorageKey) } };
    }
    if (BigInt(value.length) > p.wasm.maxLengthStorageValue) {
      return { DeterministicStateInitValueLengthExceeded: { length: value.length, limit: Number(p.wasm.maxLengthStorageValue) } };
    }
  }
  return undefined;
}
