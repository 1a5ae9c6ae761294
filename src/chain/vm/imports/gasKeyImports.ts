import type { PublicKey } from "@shardkit/primitives/publicKey";
import type { AccessKeyPermission } from "@shardkit/primitives/accessKey";
import { GAS_KEY_INFO_BORSH_LENGTH, MIN_GAS_KEY_BORSH_LENGTH, NONCE_VALUE_LENGTH } from "../../runtime/gasKeys.js";
import { hostError } from "../HostError.js";
import type { VmLogic } from "../VmLogic.js";
import type { HostImports } from "./HostImports.js";
import { methodName, splitMethodNames } from "./promiseImports.js";

/** nearcore `access_key_key_len(account_id_len, public_key_len)`: column ‖ account ‖ ',' ‖ key. */
const accessKeyKeyLength = (accountId: string, pkLen: bigint): bigint => 2n + BigInt(Buffer.byteLength(accountId, "utf8")) + pkLen;

/**
 * The gas-key host functions of protocol 85 (`gas_key_host_fns`, NEP-611; nearcore logic.rs
 * `promise_batch_action_transfer_to_gas_key`, `promise_batch_action_add_gas_key_with_*`).
 * Fees are priced on the key's length as the contract passed it (nearcore prices the exec
 * fee on the trie length only from FixMlDsaCostCharging, a nightly feature). Withdrawing
 * from a gas key has no host function: it must be a transaction.
 */
export function gasKeyImports(l: VmLogic): HostImports {
  const f = l.fees;

  /** The key and the index of the receipt it goes to, read as nearcore reads them. */
  const target = (name: string, idx: bigint, pkLen: bigint, pkPtr: bigint) => {
    l.gas.payBase("base");
    l.denyInView(name);
    const key = l.readPublicKey(pkPtr, pkLen);
    return { key, ...l.receiptOf(idx) };
  };

  /** `gas_key_add_key_send_fee` / `gas_key_add_key_exec_fee`: GasKeyInfo bytes sent, each nonce row written. */
  const payAddGasKey = (receipt: number, sir: boolean, pkLen: bigint, numNonces: bigint): number => {
    if (numNonces > 0xffffn) throw hostError({ name: "IntegerOverflow" });
    const send = (sir ? f.gasKeyPerByte.sendSir : f.gasKeyPerByte.sendNotSir) * BigInt(GAS_KEY_INFO_BORSH_LENGTH);
    const nonceBytes = accessKeyKeyLength(l.receipts.receiverOf(receipt), pkLen) + 2n + BigInt(NONCE_VALUE_LENGTH);
    l.gas.payAction(send, send + f.gasKeyPerByte.execution * nonceBytes * numNonces, "gas_key_byte");
    l.gas.payAction(0n, f.gasKeyNonceWriteBase.execution * numNonces, "gas_key_nonce_write_base");
    return Number(numNonces);
  };

  const appendAddKey = (receipt: number, key: () => PublicKey, permission: AccessKeyPermission): void => {
    l.receipts.append(receipt, { type: "AddKey", publicKey: key(), accessKey: { nonce: 0n, permission } });
  };

  return {
    promise_batch_action_transfer_to_gas_key(idx: bigint, pkLen: bigint, pkPtr: bigint, amountPtr: bigint): void {
      const { key, receipt, sir } = target("promise_batch_action_transfer_to_gas_key", idx, pkLen, pkPtr);
      const amount = l.readU128(amountPtr);
      const receiverId = l.receipts.receiverOf(receipt);
      const sendBase = sir ? f.gasKeyTransferBase.sendSir : f.gasKeyTransferBase.sendNotSir;
      l.gas.payAction(sendBase, sendBase + f.gasKeyTransferBase.execution, "gas_key_transfer_base");
      const sendBytes = (sir ? f.gasKeyPerByte.sendSir : f.gasKeyPerByte.sendNotSir) * pkLen;
      const execBytes = f.gasKeyPerByte.execution * (accessKeyKeyLength(receiverId, pkLen) + BigInt(MIN_GAS_KEY_BORSH_LENGTH));
      l.gas.payAction(sendBytes, sendBytes + execBytes, "gas_key_byte");
      l.deductBalance(amount);
      l.receipts.append(receipt, { type: "TransferToGasKey", publicKey: key(), deposit: amount });
    },
    promise_batch_action_add_gas_key_with_full_access(idx: bigint, pkLen: bigint, pkPtr: bigint, numNonces: bigint): void {
      const { key, receipt, sir } = target("promise_batch_action_add_gas_key_with_full_access", idx, pkLen, pkPtr);
      l.payActionBase(f.addFullAccessKey, sir, "add_full_access_key");
      const n = payAddGasKey(receipt, sir, pkLen, numNonces);
      appendAddKey(receipt, key, { GasKeyFullAccess: { balance: 0n, numNonces: n } });
    },
    promise_batch_action_add_gas_key_with_function_call(
      idx: bigint,
      pkLen: bigint,
      pkPtr: bigint,
      numNonces: bigint,
      allowancePtr: bigint,
      rLen: bigint,
      rPtr: bigint,
      nLen: bigint,
      nPtr: bigint,
    ): void {
      const { key, receipt, sir } = target("promise_batch_action_add_gas_key_with_function_call", idx, pkLen, pkPtr);
      const allowance = l.readU128(allowancePtr);
      const receiverId = l.readAccountId(rPtr, rLen);
      const methodNames = splitMethodNames(l.memoryOrRegister(nPtr, nLen));
      const bytes = methodNames.reduce((n, m) => n + BigInt(m.length) + 1n, 0n);
      l.payActionBase(f.addFunctionCallKeyBase, sir, "add_function_call_key_base");
      l.payActionPerByte(f.addFunctionCallKeyPerByte, bytes, sir, "add_function_call_key_byte");
      const n = payAddGasKey(receipt, sir, pkLen, numNonces);
      // A non-zero allowance reaches receipt validation (GasKeyFunctionCallAllowanceNotAllowed).
      appendAddKey(receipt, key, {
        GasKeyFunctionCall: {
          gasKeyInfo: { balance: 0n, numNonces: n },
          functionCall: { allowance: allowance > 0n ? allowance : null, receiverId, methodNames: methodNames.map(methodName) },
        },
      });
    },
  };
}
