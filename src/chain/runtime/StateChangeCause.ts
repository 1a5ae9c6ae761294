/**
 * Why a state write happened: nearcore's `StateChangeCause` (core/primitives types.rs), the
 * label `TrieUpdate::commit` puts on every write it folds in. Hashes stay raw bytes here
 * (the hot path builds one cause per commit); views encode them in base58.
 */
export type StateChangeCause =
  | { readonly type: "not_writable_to_disk" }
  | { readonly type: "initial_state" }
  | { readonly type: "transaction_processing"; readonly txHash: Uint8Array }
  | { readonly type: "action_receipt_processing_started"; readonly receiptHash: Uint8Array }
  | { readonly type: "action_receipt_gas_reward"; readonly receiptHash: Uint8Array }
  | { readonly type: "receipt_processing"; readonly receiptHash: Uint8Array }
  | { readonly type: "postponed_receipt"; readonly receiptHash: Uint8Array }
  | { readonly type: "updated_delayed_receipts" }
  | { readonly type: "validator_accounts_update" }
  | { readonly type: "migration" };

/** Causes without a hash are shared constants: committing with them allocates nothing. */
export const INITIAL_STATE: StateChangeCause = Object.freeze({ type: "initial_state" });
export const UPDATED_DELAYED_RECEIPTS: StateChangeCause = Object.freeze({ type: "updated_delayed_receipts" });
export const VALIDATOR_ACCOUNTS_UPDATE: StateChangeCause = Object.freeze({ type: "validator_accounts_update" });
export const MIGRATION: StateChangeCause = Object.freeze({ type: "migration" });

/** One write of a key: the value it left (`null` = deleted) and why. */
export interface RawStateChange {
  readonly cause: StateChangeCause;
  readonly value: string | null;
}

/**
 * Every write of one trie key (latin1) within a block, in commit order (nearcore
 * `RawStateChangesWithTrieKey`): a key written by a transaction and then by two receipts
 * has three changes, each with its cause; the last one is the key's value after the block.
 */
export interface KeyStateChanges {
  readonly key: string;
  readonly changes: readonly RawStateChange[];
}
