import type { SortedChanges } from "./applyChanges.js";
import type { ScanVisitor } from "./scanTrie.js";

/** Read access to one state root of one shard. Keys and values are latin1 byte strings. */
export interface StateSnapshot {
  /** The 32-byte state root (all zeros for an empty state). */
  readonly rootHash: Uint8Array;
  get(key: string): string | undefined;
  /** In-order visit of keys under `prefix`, strictly after `after` when given. */
  scan(prefix: string, after: string | undefined, visit: ScanVisitor): void;
  /** Completeness proof for every key under `prefix` (format: src/proof/trieNodeFormat.ts). */
  prove(prefix: string): Uint8Array[];
}

/**
 * Where state roots and their nodes live. The chain only talks to this interface, so an
 * on-disk backend (nodes keyed by hash) can replace the in-memory one without touching
 * block production or reads.
 */
export interface StateStore {
  /** The empty state. */
  empty(): StateSnapshot;
  /** Bulk-loads strictly increasing keys (genesis). */
  build(keys: readonly string[], values: readonly string[]): StateSnapshot;
  /** Applies a batch on top of `base`; `base` stays readable. */
  commit(base: StateSnapshot, changes: SortedChanges): StateSnapshot;
  /** A previously built or committed root, if this store still holds it. */
  byRoot(rootHash: Uint8Array): StateSnapshot | undefined;
}
