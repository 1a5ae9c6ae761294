import { ZERO_HASH } from "../../primitives/cryptoHash.js";
import { bytesToLatin1 } from "../../primitives/latin1.js";
import { contractDataTrieKey } from "../../store/trieKeys.js";
import type { DeterministicStateInitAction } from "../../transaction/index.js";
import type { ActionResult } from "../ActionResult.js";
import { balanceRefundReceipt } from "../receipt.js";
import { lackingStorageStake } from "../storageStake.js";
import { type ActionEnv, receiverAccount } from "./ActionEnv.js";
import { useGlobalContract } from "./useGlobalContract.js";

/**
 * nearcore deterministic_account_id.rs `action_deterministic_state_init` (NEP-616). Validation
 * has already checked that the receiver is the id the state init derives. An absent account is
 * created with no balance (the actor stays the predecessor, so nobody can add keys to it); an
 * absent or contract-less account gets the global contract and the data entries (each counting
 * key + value + 40 bytes of storage); an account with a contract is left as it is, so that an
 * init can be sent lazily before other actions. The deposit pays what the account lacks for
 * its storage, exactly; the rest goes back to the predecessor (or refund_to) at once. When the
 * deposit is not enough it all stays on the account and the receipt's storage check decides.
 */
export function deterministicStateInit(env: ActionEnv, action: DeterministicStateInitAction, result: ActionResult): void {
  const p = env.ctx.params;
  if (env.account === undefined) {
    env.account = { amount: 0n, locked: 0n, codeHash: ZERO_HASH, storageUsage: p.storageNumBytesAccount };
  }
  if (env.account.globalContract === undefined && env.account.codeHash.every((b) => b === 0)) {
    useGlobalContract(env, { type: "UseGlobalContract", contractIdentifier: action.stateInit.code }, result);
    if (!result.ok) return;
    let storageUsage = receiverAccount(env).storageUsage;
    for (const [key, value] of action.stateInit.data) {
      env.su.set(contractDataTrieKey(env.accountId, key), bytesToLatin1(value));
      storageUsage += key.length + value.length + p.storageNumExtraBytesRecord;
    }
    env.account = { ...receiverAccount(env), storageUsage };
  }
  const account = receiverAccount(env);
  const lacking = lackingStorageStake(p, account) ?? 0n;
  const used = lacking < action.deposit ? lacking : action.deposit;
  env.account = { ...account, amount: account.amount + used };
  const refund = action.deposit - used;
  if (lacking <= action.deposit && refund > 0n) {
    result.newReceipts.push(balanceRefundReceipt(env.receipt.body.refundTo ?? env.receipt.predecessorId, refund));
  }
}
