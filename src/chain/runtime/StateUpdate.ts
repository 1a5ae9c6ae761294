import { ChangeSet } from "../store/changeSet.js";
import type { StateSnapshot } from "../store/stateStore.js";
import { isReportedStateKey } from "../store/trieKeys.js";
import type { KeyStateChanges, RawStateChange, StateChangeCause } from "./StateChangeCause.js";

const BASE_READS_LIMIT = 4096;

/** A committed key: its current value and every committed write that led to it. */
interface CommittedKey {
  value: string | null;
  readonly changes: RawStateChange[];
}

/**
 * Writes of one chunk on top of a shard's state, with nearcore `TrieUpdate` semantics:
 * writes go to a prospective layer that `commit(cause)` folds into the committed layer and
 * `rollback()` discards (a failed receipt undoes every write since the last commit).
 * Every committed write is kept with its cause, as nearcore records state changes.
 * Keys and values are latin1 byte strings, as in the trie; `null` marks a deletion.
 */
export class StateUpdate {
  private readonly committed = new Map<string, CommittedKey>();
  private prospective = new Map<string, string | null>();
  /**
   * Values read from the base (null: absent). The base is an immutable snapshot, so a key read
   * again in the chunk (a contract's read-only data, a key every refund looks up) skips the
   * trie walk. Bounded: a chunk that reads a whole contract's state (a DeleteAccount lists
   * every key) keeps only the first BASE_READS_LIMIT values.
   */
  private readonly baseReads = new Map<string, string | null>();

  constructor(private readonly base: StateSnapshot) {}

  get(key: string): string | undefined {
    const p = this.prospective.get(key);
    if (p !== undefined) return p ?? undefined;
    if (this.prospective.has(key)) return undefined;
    const c = this.committed.get(key);
    if (c !== undefined) return c.value ?? undefined;
    const read = this.baseReads.get(key);
    if (read !== undefined) return read ?? undefined;
    const value = this.base.get(key);
    if (this.baseReads.size < BASE_READS_LIMIT) this.baseReads.set(key, value ?? null);
    return value;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  set(key: string, value: string): void {
    this.prospective.set(key, value);
  }

  remove(key: string): void {
    this.prospective.set(key, null);
  }

  /** Folds the prospective writes in, each recorded as one change with `cause` (nearcore appends, never merges). */
  commit(cause: StateChangeCause): void {
    if (this.prospective.size === 0) return;
    for (const [k, v] of this.prospective) {
      const c = this.committed.get(k);
      if (c === undefined) {
        this.committed.set(k, { value: v, changes: [{ cause, value: v }] });
      } else {
        c.value = v;
        c.changes.push({ cause, value: v });
      }
    }
    this.prospective = new Map();
  }

  rollback(): void {
    this.prospective = new Map();
  }

  /** Every live key starting with `prefix`, sorted by raw bytes (base ∪ writes − deletions). */
  keysWithPrefix(prefix: string): string[] {
    const keys = new Set<string>();
    this.base.scan(prefix, undefined, (k) => {
      keys.add(k);
    });
    for (const k of this.committed.keys()) if (k.startsWith(prefix)) keys.add(k);
    for (const k of this.prospective.keys()) if (k.startsWith(prefix)) keys.add(k);
    return [...keys].filter((k) => this.has(k)).sort();
  }

  /** The committed writes as a change set (prospective writes must have been committed or rolled back). */
  toChangeSet(): ChangeSet {
    if (this.prospective.size > 0) throw new Error("uncommitted state writes");
    const set = new ChangeSet();
    for (const [k, c] of this.committed) {
      if (c.value === null) set.delete(k);
      else set.set(k, c.value);
    }
    return set;
  }

  /**
   * The committed writes of accounts, access keys, contract code and contract data with
   * their causes, in trie key order: what nearcore stores for the state changes RPCs (it
   * leaves out the other columns: receipts, delayed queue, received data).
   */
  stateChanges(): KeyStateChanges[] {
    if (this.prospective.size > 0) throw new Error("uncommitted state writes");
    const out: KeyStateChanges[] = [];
    for (const [key, c] of this.committed) {
      if (isReportedStateKey(key)) out.push({ key, changes: c.changes });
    }
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  get size(): number {
    return this.committed.size + this.prospective.size;
  }
}

