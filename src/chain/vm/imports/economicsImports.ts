import type { VmLogic } from "../VmLogic.js";
import type { HostImports } from "./HostImports.js";

/**
 * Economics API: balances, attached deposit, prepaid and used gas; and the storage staking
 * parameters (nearcore `storage_config_*`, added with NEP-616 so that a contract can compute
 * what a new account's state costs: `base`, plus writing the u128 for the byte cost).
 */
export function economicsImports(l: VmLogic): HostImports {
  return {
    account_balance(ptr: bigint): void {
      l.gas.payBase("base");
      l.writeU128(ptr, l.balance);
    },
    account_locked_balance(ptr: bigint): void {
      l.gas.payBase("base");
      l.writeU128(ptr, l.context.accountLockedBalance);
    },
    attached_deposit(ptr: bigint): void {
      l.gas.payBase("base");
      l.writeU128(ptr, l.context.attachedDeposit);
    },
    prepaid_gas(): bigint {
      l.gas.payBase("base");
      l.denyInView("prepaid_gas");
      return l.context.prepaidGas;
    },
    used_gas(): bigint {
      l.gas.payBase("base");
      l.denyInView("used_gas");
      return l.gas.usedGas;
    },
    storage_config_byte_cost(ptr: bigint): void {
      l.gas.payBase("base");
      l.writeU128(ptr, l.storageAmountPerByte);
    },
    storage_config_num_bytes_account(): bigint {
      l.gas.payBase("base");
      return BigInt(l.storageNumBytesAccount);
    },
    storage_config_num_extra_bytes_record(): bigint {
      l.gas.payBase("base");
      return BigInt(l.storageNumExtraBytesRecord);
    },
  };
}
