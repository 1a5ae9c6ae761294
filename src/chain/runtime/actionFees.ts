import { functionCallPermissionOf, gasKeyInfoOf } from "@shardkit/primitives/accessKey";
import type { PublicKey } from "@shardkit/primitives/publicKey";
import type { AccessKeyPermissionWithGasKeys, Action } from "../transaction/index.js";
import {
  accessKeyTrieKeyLength,
  GAS_KEY_INFO_BORSH_LENGTH,
  gasKeyNonceTrieKeyLength,
  MIN_GAS_KEY_BORSH_LENGTH,
  NONCE_VALUE_LENGTH,
} from "./gasKeys.js";
import { stateInitDataBytes } from "@shardkit/primitives/deterministicAccountId";
import { delegateBodyOf } from "./delegateBody.js";
import { isEthImplicitAccount, isNearDeterministicAccount, isNearImplicitAccount } from "./implicitAccount.js";
import { sendFee, type Fee, type RuntimeFees, type RuntimeParameters } from "./parameters.js";

/*
 * Gas fees of actions, after nearcore runtime/runtime/src/config.rs (total_send_fees,
 * exec_fee, total_prepaid_exec_fees, total_prepaid_send_fees, total_deposit,
 * total_prepaid_gas). All gas is bigint so that u64 overflow can be detected by the caller.
 * Every action of protocol 85 has its fee; an unknown action type here is a bug.
 */

const utf8Length = (s: string): number => Buffer.byteLength(s, "utf8");

/** Method-name bytes of a (gas-key) function-call key, each counted with a terminating byte. */
function methodNamesBytes(permission: AccessKeyPermissionWithGasKeys): bigint {
  const fc = functionCallPermissionOf(permission);
  return fc === undefined ? 0n : BigInt(fc.methodNames.reduce((n, m) => n + utf8Length(m) + 1, 0));
}

/** Borsh length of a public key (nearcore `PublicKey::len`): type byte ‖ data. */
const borshKeyLength = (publicKey: PublicKey): bigint => BigInt(1 + publicKey.data.length);

/**
 * nearcore config.rs `permission_send_fees`: a full-access or function-call key's fee (gas
 * keys pay the fee of their kind), plus `action_gas_key_byte` × 18 (GasKeyInfo) for a gas key.
 */
function addKeySendFee(f: RuntimeFees, send: (fee: Fee) => bigint, permission: AccessKeyPermissionWithGasKeys): bigint {
  const key = functionCallPermissionOf(permission) === undefined
    ? send(f.addFullAccessKey)
    : send(f.addFunctionCallKeyBase) + send(f.addFunctionCallKeyPerByte) * methodNamesBytes(permission);
  return gasKeyInfoOf(permission) === undefined ? key : key + send(f.gasKeyPerByte) * BigInt(GAS_KEY_INFO_BORSH_LENGTH);
}

/**
 * nearcore config.rs `permission_exec_fees`: the key's fee, plus per nonce of a gas key
 * `action_gas_key_nonce_write_base` and `action_gas_key_byte` × (nonce trie key + u64 value).
 */
function addKeyExecFee(f: RuntimeFees, a: Extract<Action, { type: "AddKey" }>, receiverId: string): bigint {
  const permission = a.accessKey.permission;
  const key = functionCallPermissionOf(permission) === undefined
    ? f.addFullAccessKey.execution
    : f.addFunctionCallKeyBase.execution + f.addFunctionCallKeyPerByte.execution * methodNamesBytes(permission);
  const info = gasKeyInfoOf(permission);
  if (info === undefined) return key;
  const bytes = BigInt(gasKeyNonceTrieKeyLength(receiverId, a.publicKey) + NONCE_VALUE_LENGTH);
  return key + (f.gasKeyNonceWriteBase.execution + f.gasKeyPerByte.execution * bytes) * BigInt(info.numNonces);
}

/** nearcore `gas_key_transfer_send_fee` (TransferToGasKey, WithdrawFromGasKey): base + bytes of the borsh key. */
function gasKeyTransferSendFee(f: RuntimeFees, send: (fee: Fee) => bigint, publicKey: PublicKey): bigint {
  return send(f.gasKeyTransferBase) + send(f.gasKeyPerByte) * borshKeyLength(publicKey);
}

/** nearcore `gas_key_transfer_exec_fee`: base + bytes of the key's trie key and of the smallest gas key. */
function gasKeyTransferExecFee(f: RuntimeFees, receiverId: string, publicKey: PublicKey): bigint {
  const bytes = BigInt(accessKeyTrieKeyLength(receiverId, publicKey) + MIN_GAS_KEY_BORSH_LENGTH);
  return f.gasKeyTransferBase.execution + f.gasKeyPerByte.execution * bytes;
}

/** nearcore `GlobalContractIdentifier::len`: 32 for a code hash, the account id's length. */
function identifierLength(a: Extract<Action, { type: "UseGlobalContract" }>): bigint {
  const id = a.contractIdentifier;
  return BigInt(id.kind === "CodeHash" ? 32 : id.accountId.length);
}

/**
 * nearcore config.rs, DeterministicStateInit: base + per entry + per byte of the keys and
 * values (`DeterministicAccountStateInit::len_bytes`), send and execution alike.
 */
function stateInitFee(f: RuntimeFees, fee: (x: Fee) => bigint, a: Extract<Action, { type: "DeterministicStateInit" }>): bigint {
  const entries = BigInt(a.stateInit.data.length);
  const bytes = BigInt(stateInitDataBytes(a.stateInit));
  return fee(f.deterministicStateInitBase) + fee(f.deterministicStateInitPerEntry) * entries + fee(f.deterministicStateInitPerByte) * bytes;
}

function unsupported(a: Action): never {
  throw new Error(`no fee for unsupported action ${a.type}`);
}

/**
 * nearcore config.rs `transfer_send_fee`: a transfer to a NEAR-implicit account also pays for
 * creating that account with a full-access key; one to an ETH-implicit or NEAR-deterministic
 * (NEP-616) account for creating it without a key.
 */
export function transferSendFee(f: RuntimeFees, senderIsReceiver: boolean, receiverId: string): bigint {
  const send = (fee: Parameters<typeof sendFee>[0]): bigint => sendFee(fee, senderIsReceiver);
  const base = send(f.transfer);
  if (isNearImplicitAccount(receiverId)) return base + send(f.createAccount) + send(f.addFullAccessKey);
  return isEthImplicitAccount(receiverId) || isNearDeterministicAccount(receiverId) ? base + send(f.createAccount) : base;
}

/** nearcore config.rs `transfer_exec_fee`: the execution side of {@link transferSendFee}. */
export function transferExecFee(f: RuntimeFees, receiverId: string): bigint {
  const base = f.transfer.execution;
  if (isNearImplicitAccount(receiverId)) return base + f.createAccount.execution + f.addFullAccessKey.execution;
  return isEthImplicitAccount(receiverId) || isNearDeterministicAccount(receiverId) ? base + f.createAccount.execution : base;
}

/** Gas burnt on the sender's side to send `actions` to `receiverId`. */
export function totalSendFees(
  p: RuntimeParameters,
  senderIsReceiver: boolean,
  actions: readonly Action[],
  receiverId: string,
): bigint {
  const f = p.fees;
  const send = (fee: Parameters<typeof sendFee>[0]) => sendFee(fee, senderIsReceiver);
  let total = 0n;
  for (const a of actions) {
    switch (a.type) {
      case "CreateAccount":
        total += send(f.createAccount);
        break;
      case "DeployContract":
        total += send(f.deployContractBase) + send(f.deployContractPerByte) * BigInt(a.code.length);
        break;
      case "FunctionCall":
        total +=
          send(f.functionCallBase) +
          send(f.functionCallPerByte) * BigInt(utf8Length(a.methodName) + a.args.length);
        break;
      case "Transfer":
        total += transferSendFee(f, senderIsReceiver, receiverId);
        break;
      case "Stake":
        total += send(f.stake);
        break;
      case "AddKey":
        total += addKeySendFee(f, send, a.accessKey.permission);
        break;
      case "TransferToGasKey":
      case "WithdrawFromGasKey":
        total += gasKeyTransferSendFee(f, send, a.publicKey);
        break;
      case "DeleteKey":
        total += send(f.deleteKey);
        break;
      case "DeleteAccount":
        total += send(f.deleteAccount);
        break;
      case "Delegate":
      case "DelegateV2": {
        const d = delegateBodyOf(a);
        total += send(f.delegate) + totalSendFees(p, senderIsReceiver, d.actions, d.receiverId);
        break;
      }
      case "DeployGlobalContract":
        total += send(f.deployGlobalContractBase) + send(f.deployGlobalContractPerByte) * BigInt(a.code.length);
        break;
      case "UseGlobalContract":
        total += send(f.useGlobalContractBase) + send(f.useGlobalContractPerIdentifierByte) * identifierLength(a);
        break;
      case "DeterministicStateInit":
        total += stateInitFee(f, send, a);
        break;
      default:
        unsupported(a);
    }
  }
  return total;
}

/** Gas burnt when one action executes on the receiver's shard. */
export function execFee(p: RuntimeParameters, a: Action, receiverId: string): bigint {
  const f = p.fees;
  switch (a.type) {
    case "CreateAccount":
      return f.createAccount.execution;
    case "DeployContract":
      return f.deployContractBase.execution + f.deployContractPerByte.execution * BigInt(a.code.length);
    case "FunctionCall":
      return f.functionCallBase.execution + f.functionCallPerByte.execution * BigInt(utf8Length(a.methodName) + a.args.length);
    case "Transfer":
      return transferExecFee(f, receiverId);
    case "Stake":
      return f.stake.execution;
    case "AddKey":
      return addKeyExecFee(f, a, receiverId);
    case "TransferToGasKey":
    case "WithdrawFromGasKey":
      return gasKeyTransferExecFee(f, receiverId, a.publicKey);
    case "DeleteKey":
      return f.deleteKey.execution;
    case "DeleteAccount":
      return f.deleteAccount.execution;
    case "Delegate":
    case "DelegateV2":
      return f.delegate.execution;
    case "DeployGlobalContract":
      return f.deployGlobalContractBase.execution + f.deployGlobalContractPerByte.execution * BigInt(a.code.length);
    case "UseGlobalContract":
      return f.useGlobalContractBase.execution + f.useGlobalContractPerIdentifierByte.execution * identifierLength(a);
    case "DeterministicStateInit":
      return stateInitFee(f, (x) => x.execution, a);
    default:
      return unsupported(a);
  }
}

/**
 * Execution gas bought up front for `actions`; a Delegate also prepays the execution of the
 * receipt it will create (its inner actions plus one receipt creation).
 */
export function totalPrepaidExecFees(p: RuntimeParameters, actions: readonly Action[], receiverId: string): bigint {
  let total = 0n;
  for (const a of actions) {
    const d = delegateBodyOf(a);
    if (d !== undefined) {
      total +=
        totalPrepaidExecFees(p, d.actions, d.receiverId) +
        execFee(p, a, d.receiverId) +
        p.fees.actionReceiptCreation.execution;
    } else {
      total += execFee(p, a, receiverId);
    }
  }
  return total;
}

/** Send fees of a Delegate's inner actions: prepaid by the relayer, burnt when the inner receipt is sent. */
export function totalPrepaidSendFees(p: RuntimeParameters, actions: readonly Action[]): bigint {
  let total = 0n;
  for (const a of actions) {
    const d = delegateBodyOf(a);
    if (d === undefined) continue;
    total += totalSendFees(p, d.senderId === d.receiverId, d.actions, d.receiverId);
  }
  return total;
}

function depositOf(a: Action): bigint {
  if (a.type === "Transfer" || a.type === "FunctionCall" || a.type === "TransferToGasKey" || a.type === "DeterministicStateInit") {
    return a.deposit;
  }
  return 0n;
}

/** Tokens attached to `actions` (a Delegate's inner deposits are paid by the relayer). */
export function totalDeposit(actions: readonly Action[]): bigint {
  let total = 0n;
  for (const a of actions) {
    const d = delegateBodyOf(a);
    total += d === undefined ? depositOf(a) : totalDeposit(d.actions);
  }
  return total;
}

/** Gas attached to function calls in `actions` (including a Delegate's inner ones). */
export function totalPrepaidGas(actions: readonly Action[]): bigint {
  let total = 0n;
  for (const a of actions) {
    const d = delegateBodyOf(a);
    if (d !== undefined) total += totalPrepaidGas(d.actions);
    else if (a.type === "FunctionCall") total += a.gas;
  }
  return total;
}
