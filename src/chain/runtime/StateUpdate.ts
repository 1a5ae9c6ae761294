import { ChangeSet } from "../store/changeSet.js";
import type { StateSnapshot } from "../store/stateStore.js";

/**
 * Writes of one chunk on top of a shard's state, with nearcore `TrieUpdate` semantics:
 * writes go to a prospective layer that `commit()` folds into the committed layer and
 * `rollback()` discards (a failed receipt undoes every write since the last commit).
 * Keys and values are latin1 byte strings, as in the trie; `null` marks a deletion.
 */
export class StateUpdate {
  private readonly committed = new Map<string, string | null>();
  private prospective = new Map<string, string | null>();

  constructor(private readonly base: StateSnapshot) {}

  get(key: string): string | undefined {
    const p = this.prospective.get(key);
    if (p !== undefined) return p ?? undefined;
    if (this.prospective.has(key)) return undefined;
    const c = this.committed.get(key);
    if (c !== undefined) return c ?? undefined;
    if (this.committed.has(key)) return undefined;
    return this.base.get(key);
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

  commit(): void {
    for (const [k, v] of this.prospective) this.committed.set(k, v);
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
    for (const layer of [this.committed, this.prospective]) {
      for (const k of layer.keys()) if (k.startsWith(prefix)) keys.add(k);
    }
    return [...keys].filter((k) => this.has(k)).sort();
  }

  /** The committed writes as a change set (prospective writes must have been committed or rolled back). */
  toChangeSet(): ChangeSet {
    if (this.prospective.size > 0) throw new Error("uncommitted state writes");
    const set = new ChangeSet();
    for (const [k, v] of this.committed) {
      if (v === null) set.delete(k);
      else set.set(k, v);
    }
    return set;
  }

  get size(): number {
    return this.committed.size + this.prospective.size;
  }
}
