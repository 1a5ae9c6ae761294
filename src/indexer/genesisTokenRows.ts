import type { FtUpdateRow } from "./IndexStore.js";

/**
 * Reads one decimal amount a contract answers about an account (`ft_balance_of`,
 * `nft_supply_for_owner`, `get_account_total_balance`): the decimal string, or `""` when the
 * contract does not answer one (no such method, a panic, not a contract).
 */
export type GenesisAmountRead = (contractId: string, methodName: string, accountId: string) => string;

export interface GenesisTokenRows {
  readonly ft: FtUpdateRow[];
  readonly nft: { readonly accountId: string; readonly contractId: string }[];
  readonly pools: { readonly accountId: string; readonly poolId: string }[];
}

/** The views that tell a token contract's holders, one per kind of row. */
const KINDS = [
  { kind: "ft", method: "ft_balance_of" },
  { kind: "nft", method: "nft_supply_for_owner" },
  { kind: "pool", method: "get_account_total_balance" },
] as const;

/** Reads at most this many amounts for the genesis rows (a large `--genesis` file indexes what fits). */
export const MAX_GENESIS_TOKEN_READS = 20_000;

/**
 * The token rows that exist from genesis, which no receipt will ever announce: FT balances, NFT
 * owners and staking-pool delegators, read at the genesis block as at any other. Each contract
 * is first asked about itself to learn which kinds it answers (a NEP-141 token answers
 * `ft_balance_of` with `"0"` for any account, a contract without the method fails), then about
 * every genesis account; an account with a non-zero amount gets a row.
 */
export function genesisTokenRows(
  contracts: readonly string[],
  accounts: readonly string[],
  read: { ft?: GenesisAmountRead | undefined; other?: GenesisAmountRead | undefined },
  maxReads = MAX_GENESIS_TOKEN_READS,
): GenesisTokenRows {
  const rows: GenesisTokenRows = { ft: [], nft: [], pools: [] };
  let reads = 0;
  const amount = (reader: GenesisAmountRead, contractId: string, method: string, accountId: string): string | undefined => {
    if (reads >= maxReads) return undefined;
    reads++;
    const value = reader(contractId, method, accountId);
    return /^(0|[1-9][0-9]*)$/.test(value) ? value : undefined;
  };
  for (const contractId of contracts) {
    for (const { kind, method } of KINDS) {
      const reader = kind === "ft" ? read.ft : read.other;
      const own = reader === undefined ? undefined : amount(reader, contractId, method, contractId);
      if (reader === undefined || own === undefined) continue;
      for (const accountId of accounts) {
        const value = accountId === contractId ? own : amount(reader, contractId, method, accountId);
        if (value === undefined || value === "0") continue;
        if (kind === "ft") rows.ft.push({ accountId, contractId, balance: value });
        else if (kind === "nft") rows.nft.push({ accountId, contractId });
        else rows.pools.push({ accountId, poolId: contractId });
      }
    }
  }
  return rows;
}
