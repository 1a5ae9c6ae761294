import type { PublicKey } from "@shardkit/primitives/publicKey";
import type { KeyStateChanges, StateChangeCause } from "../runtime/StateChangeCause.js";
import { INITIAL_STATE } from "../runtime/StateChangeCause.js";
import { stateChangeOfWrite, type StateChange } from "../state/stateChange.js";
import type { StateSnapshot } from "../store/stateStore.js";
import {
  accessKeysPrefix,
  accessKeyTrieKey,
  accountTrieKey,
  contractCodeTrieKey,
  contractDataTrieKey,
  isReportedStateKey,
  TrieKeyColumn,
} from "../store/trieKeys.js";
import { at } from "../must.js";

/** One change of one state entry (an account, its code, an access key, a contract data key) and why it happened. */
export interface CausedStateChange {
  readonly cause: StateChangeCause;
  /** The entry's value after this change (`null` in it: deleted). */
  readonly change: StateChange;
}

/**
 * The state changes of one block, typed, read the way nearcore reads its `StateChanges`
 * column: one entry, every entry of an account under a kind, or all of them, always in trie
 * key (raw byte) order, each entry with all its changes in commit order. Readers never see a
 * trie key: they get accounts, keys, code and data with their causes.
 */
export interface BlockStateChanges {
  account(accountId: string): CausedStateChange[];
  code(accountId: string): CausedStateChange[];
  accessKey(accountId: string, publicKey: PublicKey): CausedStateChange[];
  /** Every access key of the account the block changed, in key order. */
  accessKeys(accountId: string): CausedStateChange[];
  /** Every contract data key of the account starting with `keyPrefix`, in key order. */
  data(accountId: string, keyPrefix: Uint8Array): CausedStateChange[];
  /** Every changed entry, in key order, each as its changes in commit order. */
  entries(): readonly (readonly CausedStateChange[])[];
  /** The changed entries of one kind (all accounts, all access keys...), in key order. */
  entriesOf(kind: StateChange["type"]): readonly (readonly CausedStateChange[])[];
}

/** The trie column of each kind of entry. */
const COLUMN_PREFIX: Record<StateChange["type"], string> = {
  account: String.fromCharCode(TrieKeyColumn.ACCOUNT),
  code: String.fromCharCode(TrieKeyColumn.CONTRACT_CODE),
  accessKey: String.fromCharCode(TrieKeyColumn.ACCESS_KEY),
  gasKeyNonce: String.fromCharCode(TrieKeyColumn.ACCESS_KEY),
  data: String.fromCharCode(TrieKeyColumn.CONTRACT_DATA),
};

const byKey = (a: KeyStateChanges, b: KeyStateChanges): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** Index of the first entry whose key is >= `key` (entries sorted by key). */
function lowerBound(entries: readonly KeyStateChanges[], key: string): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (at(entries, mid).key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The typed changes of one written key (none for an unreported row such as a gas-key nonce). */
function typed(entry: KeyStateChanges): CausedStateChange[] {
  return entry.changes.flatMap(({ cause, value }) => {
    const change = stateChangeOfWrite(entry.key, value);
    return change === undefined ? [] : [{ cause, change }];
  });
}

const typedNonEmpty = (entries: readonly KeyStateChanges[]): CausedStateChange[][] => entries.map(typed).filter((c) => c.length > 0);

/** The typed reads over raw entries found by exact key and by key prefix (both in key order). */
function typedReads(forKey: (key: string) => KeyStateChanges | undefined, withPrefix: (prefix: string) => KeyStateChanges[], all: () => readonly KeyStateChanges[]): BlockStateChanges {
  const one = (key: string): CausedStateChange[] => {
    const entry = forKey(key);
    return entry === undefined ? [] : typed(entry);
  };
  const many = (prefix: string): CausedStateChange[] => withPrefix(prefix).flatMap(typed);
  let everything: CausedStateChange[][] | undefined;
  return {
    account: (accountId) => one(accountTrieKey(accountId)),
    code: (accountId) => one(contractCodeTrieKey(accountId)),
    // The key's row, then a gas key's nonce rows (its trie key followed by the index).
    accessKey: (accountId, publicKey) => many(accessKeyTrieKey(accountId, publicKey)),
    accessKeys: (accountId) => many(accessKeysPrefix(accountId)),
    data: (accountId, keyPrefix) => many(contractDataTrieKey(accountId, keyPrefix)),
    entries: () => (everything ??= typedNonEmpty(all())),
    entriesOf: (kind) => typedNonEmpty(withPrefix(COLUMN_PREFIX[kind])),
  };
}

/** Changes the runtime recorded for a produced block: per shard lists merged into one sorted list. */
export function recordedStateChanges(perShard: readonly (readonly KeyStateChanges[])[]): BlockStateChanges {
  const entries: readonly KeyStateChanges[] = perShard.length === 1 ? at(perShard, 0) : perShard.flat().sort(byKey);
  return typedReads(
    (key) => {
      const e = entries[lowerBound(entries, key)];
      return e !== undefined && e.key === key ? e : undefined;
    },
    (prefix) => {
      const out: KeyStateChanges[] = [];
      for (let i = lowerBound(entries, prefix); i < entries.length && at(entries, i).key.startsWith(prefix); i++) out.push(at(entries, i));
      return out;
    },
    () => entries,
  );
}

/**
 * The genesis block's "changes": every genesis record of the four reported columns, each
 * one change with cause `initial_state`, read from the genesis state on demand (a genesis
 * with millions of records is never listed unless asked for in full).
 */
export function genesisStateChanges(shards: readonly StateSnapshot[]): BlockStateChanges {
  const change = (key: string, value: string): KeyStateChanges => ({ key, changes: [{ cause: INITIAL_STATE, value }] });
  const scan = (prefix: string): KeyStateChanges[] => {
    const out: KeyStateChanges[] = [];
    for (const state of shards) {
      state.scan(prefix, undefined, (key, value) => {
        if (isReportedStateKey(key)) out.push(change(key, value));
      });
    }
    return shards.length === 1 ? out : out.sort(byKey);
  };
  return typedReads(
    (key) => {
      for (const state of shards) {
        const value = state.get(key);
        if (value !== undefined && isReportedStateKey(key)) return change(key, value);
      }
      return undefined;
    },
    scan,
    () => scan(""),
  );
}
