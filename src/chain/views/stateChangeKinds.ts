import { TrieKeyColumn } from "../store/trieKeys.js";

export type StateChangeKindType = "account_touched" | "access_key_touched" | "data_touched" | "contract_code_touched";

export interface StateChangeKind {
  type: StateChangeKindType;
  account_id: string;
}

const KIND_BY_COLUMN = new Map<number, StateChangeKindType>([
  [TrieKeyColumn.ACCOUNT, "account_touched"],
  [TrieKeyColumn.CONTRACT_CODE, "contract_code_touched"],
  [TrieKeyColumn.ACCESS_KEY, "access_key_touched"],
  [TrieKeyColumn.CONTRACT_DATA, "data_touched"],
]);

/**
 * nearcore's `StateChangesKinds::from_changes`: one kind per changed account, code, access
 * key or contract data key, in key order (so an account with two changed access keys is
 * listed twice, as nearcore does); other columns (receipts, delayed queue...) are skipped.
 */
export function stateChangeKinds(changedKeys: readonly string[]): StateChangeKind[] {
  const kinds: StateChangeKind[] = [];
  for (const key of changedKeys) {
    const type = KIND_BY_COLUMN.get(key.charCodeAt(0));
    if (type === undefined) continue;
    const rest = key.slice(1);
    const end = type === "account_touched" || type === "contract_code_touched" ? rest.length : rest.indexOf(",");
    kinds.push({ type, account_id: end < 0 ? rest : rest.slice(0, end) });
  }
  return kinds;
}
