import type { PublicKey } from "@shardkit/primitives/publicKey";
import type { AccessKeyPermission } from "@shardkit/primitives/accessKey";
import { publicKeyHandleLength } from "@shardkit/primitives/publicKeyHandle";
import { GAS_KEY_INFO_BORSH_LENGTH, MIN_GAS_KEY_BORSH_LENGTH, NONCE_VALUE_LENGTH } from "../../runtime/gasKeys.js";
import { hostError } from "../HostError.js";
import type { VmLogic } from "../VmLogic.js";
import type { HostImports } from "./HostImports.js";
import { methodName, splitMethodNames } from "./promiseImports.js";

/** nearcore `access_key_key_len(account_id_len, public_key_len)`: column ‖ account ‖ ',' ‖ key. */
const accessKeyKeyLength = (accountId: string, pkLen: bigint): bigint => 2n + BigInt(Buffer.byteLength(accountId, "utf8")) + pkLen;

/**
 * The gas-key host functions of protocol 85 (`gas_key_host_fns`, NEP-611; nearcore host.rs
 * `promise_batch_action_transfer_to_gas_key`, `promise_batch_action_add_gas_key_with_*`).
 * Send fees are priced on the decoded key's borsh length (`pk.len()`, 0 when it does not
 * decode: the call then fails after charging); exec (storage) fees on the same length before
 * protocol 87 and on the key's trie id length from 87 (`fix_ml_dsa_cost_charging`,
 * `gas_key_exec_pk_len`: 33 instead of 1,953 for an ML-DSA-65 key). Withdrawing from a gas
 * key has no host function: it must be a transaction.
 */
export function gasKeyImports(l: VmLogic): HostImports {
  const f = l.fees;

  /**
   * The key, its send and exec lengths and the receipt it goes to, read as nearcore reads them
   * (the receipt after the arguments `read` takes before it).
   */
  const target = <T>(name: string, idx: bigint, pkLen: bigint, pkPtr: bigint, read: () => T) => {
    l.gas.payBase("base");
    l.denyInView(name);
    const key = l.readPublicKey(pkPtr, pkLen);
    let decoded: PublicKey | undefined;
    try {
      decoded = key();
    } catch {
      decoded = undefined;
    }
    const sendLen = decoded === undefined ? 0n : BigInt(1 + decoded.data.length);
    const execLen = decoded !== undefined && l.config.fixMlDsaCostCharging ? BigInt(publicKeyHandleLength(decoded)) : sendLen;
    const args = read();
    return { key, sendLen, execLen, args, ...l.receiptOf(idx) };
  };

  /** `gas_key_add_key_send_fee` / `gas_key_add_key_exec_fee`: GasKeyInfo bytes sent, each nonce row written. */
  const payAddGasKey = (receipt: number, sir: boolean, execLen: bigint, numNonces: number): number => {
    const send = (sir ? f.gasKeyPerByte.sendSir : f.gasKeyPerByte.sendNotSir) * BigInt(GAS_KEY_INFO_BORSH_LENGTH);
    const nonceBytes = accessKeyKeyLength(l.receipts.receiverOf(receipt), execLen) + 2n + BigInt(NONCE_VALUE_LENGTH);
    l.gas.payAction(send, send + f.gasKeyPerByte.execution * nonceBytes * BigInt(numNonces), "gas_key_byte");
    l.gas.payAction(0n, f.gasKeyNonceWriteBase.execution * BigInt(numNonces), "gas_key_nonce_write_base");
    return numNonces;
  };

  /** `u16::try_from(num_nonces)`, read right after the key. */
  const nonces = (numNonces: bigint): number => {
    if (numNonces > 0xffffn) throw hostError({ name: "IntegerOverflow" });
    return Number(numNonces);
  };

  const appendAddKey = (receipt: number, key: () => PublicKey, permission: AccessKeyPermission): void => {
    l.receipts.append(receipt, { type: "AddKey", publicKey: key(), accessKey: { nonce: 0n, permission } });
  };

  return {
    promise_batch_action_transfer_to_gas_key(idx: bigint, pkLen: bigint, pkPtr: bigint, amountPtr: bigint): void {
      const t = target("promise_batch_action_transfer_to_gas_key", idx, pkLen, pkPtr, () => l.readU128(amountPtr));
      const { key, receipt, sir, args: amount } = t;
      const receiverId = l.receipts.receiverOf(receipt);
      const sendBase = sir ? f.gasKeyTransferBase.sendSir : f.gasKeyTransferBase.sendNotSir;
      l.gas.payAction(sendBase, sendBase + f.gasKeyTransferBase.execution, "gas_key_transfer_base");
      const sendBytes = (sir ? f.gasKeyPerByte.sendSir : f.gasKeyPerByte.sendNotSir) * t.sendLen;
      const execBytes = f.gasKeyPerByte.execution * (accessKeyKeyLength(receiverId, t.execLen) + BigInt(MIN_GAS_KEY_BORSH_LENGTH));
      l.gas.payAction(sendBytes, sendBytes + execBytes, "gas_key_byte");
      l.deductBalance(amount);
      l.receipts.append(receipt, { type: "TransferToGasKey", publicKey: key(), deposit: amount });
    },
    promise_batch_action_add_gas_key_with_full_access(idx: bigint, pkLen: bigint, pkPtr: bigint, numNonces: bigint): void {
      const t = target("promise_batch_action_add_gas_key_with_full_access", idx, pkLen, pkPtr, () => nonces(numNonces));
      l.payActionBase(f.addFullAccessKey, t.sir, "add_full_access_key");
      const n = payAddGasKey(t.receipt, t.sir, t.execLen, t.args);
      appendAddKey(t.receipt, t.key, { GasKeyFullAccess: { balance: 0n, numNonces: n } });
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
      const t = target("promise_batch_action_add_gas_key_with_function_call", idx, pkLen, pkPtr, () => ({
        n: nonces(numNonces),
        allowance: l.readU128(allowancePtr),
        receiverId: l.readAccountId(rPtr, rLen),
        methodNames: splitMethodNames(l.memoryOrRegister(nPtr, nLen)),
      }));
      const { allowance, receiverId, methodNames } = t.args;
      const bytes = methodNames.reduce((n, m) => n + BigInt(m.length) + 1n, 0n);
      l.payActionBase(f.addFunctionCallKeyBase, t.sir, "add_function_call_key_base");
      l.payActionPerByte(f.addFunctionCallKeyPerByte, bytes, t.sir, "add_function_call_key_byte");
      const n = payAddGasKey(t.receipt, t.sir, t.execLen, t.args.n);
      // A non-zero allowance reaches receipt validation (GasKeyFunctionCallAllowanceNotAllowed).
      appendAddKey(t.receipt, t.key, {
        GasKeyFunctionCall: {
          gasKeyInfo: { balance: 0n, numNonces: n },
          functionCall: { allowance: allowance > 0n ? allowance : null, receiverId, methodNames: methodNames.map(methodName) },
        },
      });
    },
  };
}
