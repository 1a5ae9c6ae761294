import type { VmLogic } from "../VmLogic.js";
import type { HostImports } from "./HostImports.js";

/** Economics API: balances, attached deposit, prepaid and used gas. */
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
  };
}
