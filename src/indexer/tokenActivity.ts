import { isValidAccountId } from "@shardkit/primitives/accountId";
import { isJsonObject } from "@shardkit/primitives/isJsonObject";
import { parseNep297Log } from "./nep297.js";

/** The parts of an executed receipt the token rules read. */
export interface ExecutedReceipt {
  readonly predecessorId: string;
  readonly receiverId: string;
  /** Function calls of the receipt, args as raw bytes. */
  readonly calls: readonly { readonly methodName: string; readonly args: Uint8Array }[];
  /** True for SuccessValue / SuccessReceiptId. */
  readonly succeeded: boolean;
  readonly logs: readonly string[];
}

/** (account, contract) pairs a receipt touched, per kind. */
export interface TokenActivity {
  ft: { accountId: string; contractId: string }[];
  nft: { accountId: string; contractId: string }[];
  pools: { accountId: string; poolId: string }[];
}

const FT_METHODS = new Set([
  "ft_transfer",
  "ft_transfer_call",
  "ft_mint",
  "ft_burn",
  "near_deposit",
  "near_withdraw",
  "deposit_and_stake",
]);
const NFT_METHODS = new Set(["nft_transfer", "nft_transfer_call", "nft_approve", "nft_revoke", "nft_revoke_all", "nft_mint", "nft_burn"]);

/**
 * A staking pool: FastNEAR's suffixes (`.poolv1.near`, `.pool.near`, `.pool.f863973.m0`), or
 * generally an account with a `pool`/`poolv1` part before its last part (`pool.test.near`).
 */
export function isStakingPool(accountId: string): boolean {
  const parts = accountId.split(".");
  return parts.slice(0, -1).some((part) => part === "pool" || part === "poolv1");
}

function argsObject(args: Uint8Array): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(args).toString("utf8"));
    return isJsonObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

const accountField = (value: unknown): string | undefined =>
  typeof value === "string" && isValidAccountId(value) ? value : undefined;

/**
 * FastNEAR's indexing rules (compact-indexer), applied to one successful receipt:
 * NEP-141/171 method calls give (predecessor, contract) and (args.receiver_id, contract);
 * `ft_resolve_transfer` gives its sender and receiver; NEP-297 `ft_*`/`nft_*` events give
 * their owners, for **every** `data[]` entry (FastNEAR keeps only the first); any function
 * call to a staking pool gives (predecessor, pool). FT pairs are skipped on pools.
 */
export function tokenActivity(receipt: ExecutedReceipt): TokenActivity {
  const activity: TokenActivity = { ft: [], nft: [], pools: [] };
  if (!receipt.succeeded) return activity;
  const contractId = receipt.receiverId;
  const pool = isStakingPool(contractId);
  const ft = (accountId: string | undefined) => {
    if (accountId !== undefined && !pool) activity.ft.push({ accountId, contractId });
  };
  const nft = (accountId: string | undefined) => {
    if (accountId !== undefined) activity.nft.push({ accountId, contractId });
  };
  for (const call of receipt.calls) {
    if (pool) activity.pools.push({ accountId: receipt.predecessorId, poolId: contractId });
    if (FT_METHODS.has(call.methodName)) {
      ft(receipt.predecessorId);
      ft(accountField(argsObject(call.args).receiver_id));
    } else if (call.methodName === "ft_resolve_transfer") {
      const args = argsObject(call.args);
      ft(accountField(args.sender_id));
      ft(accountField(args.receiver_id));
    } else if (NFT_METHODS.has(call.methodName)) {
      nft(receipt.predecessorId);
      nft(accountField(argsObject(call.args).receiver_id));
    }
  }
  for (const log of receipt.logs) {
    const event = parseNep297Log(log);
    if (event === undefined) continue;
    const owners = (entry: Record<string, unknown>): (string | undefined)[] =>
      event.event.endsWith("_transfer")
        ? [accountField(entry.old_owner_id), accountField(entry.new_owner_id)]
        : [accountField(entry.owner_id)];
    if (event.event === "ft_mint" || event.event === "ft_burn" || event.event === "ft_transfer") {
      for (const entry of event.data) owners(entry).forEach(ft);
    } else if (event.event === "nft_mint" || event.event === "nft_burn" || event.event === "nft_transfer") {
      for (const entry of event.data) owners(entry).forEach(nft);
    }
  }
  return activity;
}
