import type { ContractRow, FtBalance, FtHolder } from "./IndexStore.js";

const DECIMAL = /^(0|[1-9][0-9]*)$/;

/** Rows of (contract, height) pairs in the order `/full` lists them: by contract id. */
export function contractRows(rows: Iterable<[contractId: string, lastUpdateBlockHeight: number]>): ContractRow[] {
  return [...rows].map(([contractId, lastUpdateBlockHeight]) => ({ contractId, lastUpdateBlockHeight })).sort((a, b) => compareStrings(a.contractId, b.contractId));
}

/** A token's holders with a numeric balance, by balance descending then account id descending (as FastNEAR's top holders). */
export function sortFtHolders(balances: Iterable<[accountId: string, balance: FtBalance]>): FtHolder[] {
  const holders: { accountId: string; balance: string; value: bigint }[] = [];
  for (const [accountId, balance] of balances) {
    if (balance !== null && DECIMAL.test(balance)) holders.push({ accountId, balance, value: BigInt(balance) });
  }
  holders.sort((a, b) => (a.value !== b.value ? (a.value > b.value ? -1 : 1) : a.accountId < b.accountId ? 1 : -1));
  return holders.map(({ accountId, balance }) => ({ accountId, balance }));
}

export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
