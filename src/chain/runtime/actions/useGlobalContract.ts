import { globalContractCodeKey } from "../runtimeTrieKeys.js";
import { formatCryptoHash as formatHash } from "../../primitives/cryptoHash.js";
import type { UseGlobalContractAction } from "../../transaction/index.js";
import type { ActionResult } from "../ActionResult.js";
import { type ActionEnv, receiverAccount } from "./ActionEnv.js";
import { clearContractStorageUsage } from "./clearContractStorageUsage.js";
import { removeCode } from "../stateAccess.js";

/**
 * nearcore global_contracts.rs `use_global_contract`: the contract must already be on the
 * account's shard (GlobalContractDoesNotExist otherwise: distribution takes a block per
 * shard); the account's own code is removed and its storage usage counts the identifier
 * instead (32 bytes for a code hash, the deployer id's length).
 */
export function useGlobalContract(env: ActionEnv, action: UseGlobalContractAction, result: ActionResult): void {
  const id = action.contractIdentifier;
  if (!env.su.has(globalContractCodeKey(id))) {
    result.fail({
      GlobalContractDoesNotExist: {
        identifier: id.kind === "CodeHash" ? { CodeHash: formatHash(id.codeHash) } : { AccountId: id.accountId },
      },
    });
    return;
  }
  const account = receiverAccount(env);
  const storageUsage = clearContractStorageUsage(env, account) + (id.kind === "CodeHash" ? 32 : id.accountId.length);
  if (account.globalContract === undefined && account.codeHash.some((b) => b !== 0)) removeCode(env.su, env.accountId);
  env.account = { ...account, codeHash: new Uint8Array(32), storageUsage, globalContract: id };
}
