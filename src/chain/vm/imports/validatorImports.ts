import type { VmLogic } from "../VmLogic.js";
import type { HostImports } from "./HostImports.js";

/** Validator API: a validator's stake and the total stake of the epoch (u128 into memory). */
export function validatorImports(l: VmLogic): HostImports {
  return {
    validator_stake(accLen: bigint, accPtr: bigint, stakePtr: bigint): void {
      l.gas.payBase("base");
      const accountId = l.readAccountId(accPtr, accLen);
      l.gas.payBase("validator_stake_base");
      l.writeU128(stakePtr, l.ext.validatorStake(accountId) ?? 0n);
    },
    validator_total_stake(stakePtr: bigint): void {
      l.gas.payBase("base");
      l.gas.payBase("validator_total_stake_base");
      l.writeU128(stakePtr, l.ext.validatorTotalStake());
    },
  };
}
