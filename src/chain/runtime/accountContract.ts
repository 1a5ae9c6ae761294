import { base58Encode } from "@shardkit/primitives/base58";
import type { Account } from "../primitives/account.js";

/**
 * nearcore `AccountContract` of a receiver just before an action ran (ExecutionMetadata V4):
 * null for `None` (no contract, no account yet, or a slot after the failing action).
 */
export type AccountContract =
  | null
  | { readonly kind: "Local"; readonly codeHash: Uint8Array }
  | { readonly kind: "Global"; readonly codeHash: Uint8Array }
  | { readonly kind: "GlobalByAccount"; readonly accountId: string };

/**
 * nearcore `AccountContractView`: `{"local": hash}`, `{"global_hash": hash}`,
 * `{"global_account_id": id}`; `None` is a JSON null.
 */
export type AccountContractView = null | { local: string } | { global_hash: string } | { global_account_id: string };

/** The contract `account` has (null when there is no account or no contract). */
export function accountContractOf(account: Account | undefined): AccountContract {
  if (account === undefined) return null;
  const g = account.globalContract;
  if (g !== undefined) return g.kind === "CodeHash" ? { kind: "Global", codeHash: g.codeHash } : { kind: "GlobalByAccount", accountId: g.accountId };
  return account.codeHash.some((b) => b !== 0) ? { kind: "Local", codeHash: account.codeHash } : null;
}

export function toAccountContractView(c: AccountContract): AccountContractView {
  if (c === null) return null;
  if (c.kind === "Local") return { local: base58Encode(c.codeHash) };
  if (c.kind === "Global") return { global_hash: base58Encode(c.codeHash) };
  return { global_account_id: c.accountId };
}
