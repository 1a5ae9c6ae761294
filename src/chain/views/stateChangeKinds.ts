import type { StateChange } from "../state/stateChange.js";
import type { BlockStateChanges } from "./BlockStateChanges.js";

export type StateChangeKindType = "account_touched" | "access_key_touched" | "data_touched" | "contract_code_touched";

export interface StateChangeKind {
  type: StateChangeKindType;
  account_id: string;
}

const KIND: Record<StateChange["type"], StateChangeKindType> = {
  account: "account_touched",
  code: "contract_code_touched",
  accessKey: "access_key_touched",
  gasKeyNonce: "access_key_touched",
  data: "data_touched",
};

/**
 * nearcore's `StateChangesKinds::from_changes`: one kind per changed account, code, access
 * key or contract data key, in key order (so an account with two changed access keys is
 * listed twice, as nearcore does).
 */
export function stateChangeKinds(changes: BlockStateChanges): StateChangeKind[] {
  return changes.entries().map(([first]) => ({ type: KIND[first!.change.type], account_id: first!.change.accountId }));
}
