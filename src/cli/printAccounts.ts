import type { Chain } from "../chain/node.js";
import { formatNear } from "./formatNear.js";

/** One dev account as `serve --print-accounts` prints it. */
export interface PrintedAccount {
  account_id: string;
  shard_id: number;
  public_key: string;
  secret_key: string;
  /** yoctoNEAR at the chain's head, decimal. */
  balance: string;
  /** The same balance in NEAR, exact. */
  balance_near: string;
}

/** The dev accounts with their keys and their balances at the head (accounts deleted since genesis are left out). */
export function devAccountsAtHead(chain: Chain): PrintedAccount[] {
  const head = chain.head();
  return chain.devAccounts.flatMap((account) => {
    const amount = chain.at(head).account(account.accountId)?.amount;
    if (amount === undefined) return [];
    return [
      {
        account_id: account.accountId,
        shard_id: chain.shardOf(account.accountId),
        public_key: account.publicKey,
        secret_key: account.secretKey,
        balance: amount.toString(),
        balance_near: formatNear(amount),
      },
    ];
  });
}
