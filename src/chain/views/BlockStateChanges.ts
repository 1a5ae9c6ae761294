import type { KeyStateChanges } from "../runtime/StateChangeCause.js";
import { INITIAL_STATE } from "../runtime/StateChangeCause.js";
import type { StateSnapshot } from "../store/stateStore.js";
import { isReportedStateKey } from "../store/trieKeys.js";

/**
 * The state changes of one block, read the way nearcore reads its `StateChanges` column
 * (keys prefixed by the block hash): one exact key, every key under a prefix, or all of
 * them, always in trie key (raw byte) order, each key with all its changes in order.
 */
export interface BlockStateChanges {
  /** The changes of exactly this key, if the block wrote it. */
  forKey(key: string): KeyStateChanges | undefined;
  /** Every written key starting with `prefix`, in key order. */
  withPrefix(prefix: string): KeyStateChanges[];
  /** Every written key, in key order. */
  all(): readonly KeyStateChanges[];
}

const byKey = (a: KeyStateChanges, b: KeyStateChanges): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** Index of the first entry whose key is >= `key` (entries sorted by key). */
function lowerBound(entries: readonly KeyStateChanges[], key: string): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid]!.key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Changes the runtime recorded for a produced block: per shard lists merged into one sorted list. */
export function recordedStateChanges(perShard: readonly (readonly KeyStateChanges[])[]): BlockStateChanges {
  const entries: readonly KeyStateChanges[] = perShard.length === 1 ? perShard[0]! : perShard.flat().sort(byKey);
  return {
    forKey(key) {
      const e = entries[lowerBound(entries, key)];
      return e !== undefined && e.key === key ? e : undefined;
    },
    withPrefix(prefix) {
      const out: KeyStateChanges[] = [];
      for (let i = lowerBound(entries, prefix); i < entries.length && entries[i]!.key.startsWith(prefix); i++) out.push(entries[i]!);
      return out;
    },
    all: () => entries,
  };
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
  let everything: KeyStateChanges[] | undefined;
  return {
    forKey(key) {
      for (const state of shards) {
        const value = state.get(key);
        if (value !== undefined && isReportedStateKey(key)) return change(key, value);
      }
      return undefined;
    },
    withPrefix: scan,
    all: () => (everything ??= scan("")),
  };
}
