import type { GlobalContractIdentifier } from "@shardkit/primitives/action";
import { hostError } from "../HostError.js";
import type { VmLogic } from "../VmLogic.js";
import type { HostImports } from "./HostImports.js";

/**
 * NEP-616 host functions (nearcore logic.rs, protocol 82): `promise_batch_action_state_init`
 * (global contract by code hash) and `..._by_account_id` append a DeterministicStateInit with
 * no data to the promise's receipt and return its action index; `set_state_init_data_entry`
 * adds one key/value to it. Each charges `base` and reading its arguments, then the action's
 * fees as nearcore does: the base fee on the append, and per entry plus per byte of key and
 * value on each data entry (send burnt now, execution reserved). The deposit leaves the
 * balance at once. All are prohibited in view calls.
 */
export function stateInitImports(l: VmLogic): HostImports {
  const f = l.fees;

  const appendStateInit = (idx: bigint, code: GlobalContractIdentifier, amountPtr: bigint): bigint => {
    const amount = l.readU128(amountPtr);
    const { receipt, sir } = l.receiptOf(idx);
    l.payActionBase(f.deterministicStateInitBase, sir, "deterministic_state_init_base");
    l.deductBalance(amount);
    const action = l.receipts.append(receipt, { type: "DeterministicStateInit", stateInit: { version: "V1", code, data: [] }, deposit: amount });
    return BigInt(action);
  };

  return {
    promise_batch_action_state_init(idx: bigint, codeLen: bigint, codePtr: bigint, amountPtr: bigint): bigint {
      l.gas.payBase("base");
      l.denyInView("promise_batch_action_state_init");
      const codeHash = l.memoryOrRegister(codePtr, codeLen);
      if (codeHash.length !== 32) throw hostError({ name: "ContractCodeHashMalformed" });
      return appendStateInit(idx, { kind: "CodeHash", codeHash: Uint8Array.from(codeHash) }, amountPtr);
    },
    promise_batch_action_state_init_by_account_id(idx: bigint, accLen: bigint, accPtr: bigint, amountPtr: bigint): bigint {
      l.gas.payBase("base");
      l.denyInView("promise_batch_action_state_init_by_account_id");
      const accountId = l.readAccountId(accPtr, accLen);
      return appendStateInit(idx, { kind: "AccountId", accountId }, amountPtr);
    },
    set_state_init_data_entry(idx: bigint, actionIndex: bigint, keyLen: bigint, keyPtr: bigint, valueLen: bigint, valuePtr: bigint): void {
      l.gas.payBase("base");
      l.denyInView("set_state_init_data_entry");
      const { receipt, sir } = l.receiptOf(idx);
      const key = Uint8Array.from(l.memoryOrRegister(keyPtr, keyLen));
      const value = Uint8Array.from(l.memoryOrRegister(valuePtr, valueLen));
      l.payActionBase(f.deterministicStateInitPerEntry, sir, "deterministic_state_init_entry");
      l.payActionPerByte(f.deterministicStateInitPerByte, BigInt(key.length + value.length), sir, "deterministic_state_init_byte");
      if (!l.receipts.setStateInitDataEntry(receipt, actionIndex, key, value)) {
        throw hostError({ name: "InvalidActionIndex", fields: { action_index: actionIndex } });
      }
    },
  };
}
