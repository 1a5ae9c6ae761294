import type { Account } from "../primitives/account.js";
import type { RuntimeParameters } from "./parameters.js";

/**
 * nearcore verifier.rs `check_storage_stake`: how much balance an account lacks to pay for
 * its storage (storage_usage × 10^19, covered by `balance` + locked), or undefined when it
 * has enough or is a NEP-448 zero-balance account (storage usage ≤ 770 bytes).
 */
export function lackingStorageStake(p: RuntimeParameters, account: Account, balance: bigint = account.amount): bigint | undefined {
  const required = BigInt(account.storageUsage) * p.storageAmountPerByte;
  const available = balance + account.locked;
  if (available >= required) return undefined;
  if (account.storageUsage <= p.zeroBalanceAccountStorageLimit) return undefined;
  return required - available;
}
