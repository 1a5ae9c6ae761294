import type { SortedChanges } from "../store/applyChanges.js";
import type { ScanVisitor } from "../store/scanTrie.js";
import type { StateSnapshot, StateStore } from "../store/stateStore.js";
import type { ForkEntry } from "../store/ForkCache.js";
import { TrieKeyColumn } from "../store/trieKeys.js";
import { isForkedKey } from "./UpstreamState.js";

/** What a fork reads beneath its own state: the upstream at the fork block (UpstreamState). */
export interface ForkSource {
  get(key: string): string | undefined;
  /** Upstream entries under `prefix` after `after`, in key order (read lazily), or undefined when the prefix is local only. */
  entries(prefix: string, after: string | undefined): Iterable<ForkEntry> | undefined;
  /** False when the upstream certainly has no value for the key (a deletion then needs no mark). */
  mayHave(key: string): boolean;
  /**
   * Keeps contract code the fork wrote (its genesis, deploys) by hash: an upstream account with
   * the same code then runs it without fetching it, after a restart too.
   */
  rememberCode(code: string): void;
}

/**
 * A key the fork deleted is marked under this column (after every trie column, so marks sort
 * after the keys they shadow): without the mark, a key missing locally reads through to the
 * upstream. The marks live in the trie itself, so every state root knows its own deletions
 * and a revert or a historical read sees exactly the deletions of its block.
 */
const TOMBSTONE = "\xff";
const MARK = "\x01";

/**
 * A {@link StateStore} whose snapshots read through to an upstream chain (fork mode): local
 * keys first, then deletion marks, then the upstream. State roots cover local data (and the
 * marks) only; what was read from the upstream is in the fork cache, not the trie.
 */
export class ForkStateStore implements StateStore {
  private readonly wrapped = new WeakMap<StateSnapshot, ForkedSnapshot>();

  constructor(
    private readonly inner: StateStore,
    private readonly source: ForkSource,
  ) {}

  empty(): StateSnapshot {
    return this.wrap(this.inner.empty());
  }

  build(keys: readonly string[], values: readonly string[]): StateSnapshot {
    keys.forEach((key, i) => this.noteCode(key, values[i]));
    return this.wrap(this.inner.build(keys, values));
  }

  commit(base: StateSnapshot, changes: SortedChanges): StateSnapshot {
    if (!(base instanceof ForkedSnapshot)) throw new TypeError("snapshot belongs to another store");
    const keys = [...changes.keys];
    const values = [...changes.values];
    // A deletion marks the key; a write over a marked key lifts the mark.
    changes.keys.forEach((key, i) => {
      this.noteCode(key, changes.values[i]);
      if (!isForkedKey(key)) return;
      const mark = TOMBSTONE + key;
      if (changes.values[i] === null) {
        if (!this.source.mayHave(key)) return;
        keys.push(mark);
        values.push(MARK);
      } else if (base.inner.get(mark) !== undefined) {
        keys.push(mark);
        values.push(null);
      }
    });
    return this.wrap(this.inner.commit(base.inner, { keys, values }));
  }

  byRoot(rootHash: Uint8Array): StateSnapshot | undefined {
    const inner = this.inner.byRoot(rootHash);
    return inner === undefined ? undefined : this.wrap(inner);
  }

  private noteCode(key: string, value: string | null | undefined): void {
    if (value != null && key.charCodeAt(0) === TrieKeyColumn.CONTRACT_CODE) this.source.rememberCode(value);
  }

  private wrap(inner: StateSnapshot): ForkedSnapshot {
    let snapshot = this.wrapped.get(inner);
    if (snapshot === undefined) {
      snapshot = new ForkedSnapshot(inner, this.source);
      this.wrapped.set(inner, snapshot);
    }
    return snapshot;
  }
}

class ForkedSnapshot implements StateSnapshot {
  constructor(
    readonly inner: StateSnapshot,
    private readonly source: ForkSource,
  ) {}

  get rootHash(): Uint8Array {
    return this.inner.rootHash;
  }

  get(key: string): string | undefined {
    const local = this.inner.get(key);
    if (local !== undefined || !isForkedKey(key)) return local;
    if (this.inner.get(TOMBSTONE + key) !== undefined) return undefined;
    return this.source.get(key);
  }

  /** Local and upstream entries merged in key order; local ones win, marked ones are skipped. */
  scan(prefix: string, after: string | undefined, visit: ScanVisitor): void {
    const upstream = this.source.entries(prefix, after);
    if (upstream === undefined) {
      this.inner.scan(prefix, after, (k, v) => (k.startsWith(TOMBSTONE) ? true : visit(k, v)));
      return;
    }
    // The upstream side is read one entry ahead, lazily: a page is fetched only when reached.
    const ahead = upstream[Symbol.iterator]();
    let next = ahead.next();
    let stopped = false;
    /** Visits the upstream entries before `bound` (all when undefined); false once the visitor stops. */
    const upstreamBefore = (bound: string | undefined): boolean => {
      while (!next.done && (bound === undefined || next.value[0] < bound)) {
        const [key, value] = next.value;
        next = ahead.next();
        if (this.inner.get(TOMBSTONE + key) !== undefined) continue;
        if (visit(key, value) === false) {
          stopped = true;
          return false;
        }
      }
      return true;
    };
    this.inner.scan(prefix, after, (key, value) => {
      if (!upstreamBefore(key)) return false;
      if (!next.done && next.value[0] === key) next = ahead.next(); // shadowed by the local write
      const go = visit(key, value);
      if (go === false) stopped = true;
      return go;
    });
    if (!stopped) upstreamBefore(undefined);
  }

  prove(prefix: string): Uint8Array[] {
    return this.inner.prove(prefix);
  }
}
