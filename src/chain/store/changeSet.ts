import type { SortedChanges } from "./applyChanges.js";

/**
 * Collects writes for one batch (last write per key wins) and hands them to the trie as a
 * sorted change set. String `<` compares UTF-16 code units, which for latin1 strings is raw
 * byte order.
 */
export class ChangeSet {
  private readonly writes = new Map<string, string | null>();

  set(key: string, value: string): this {
    this.writes.set(key, value);
    return this;
  }

  delete(key: string): this {
    this.writes.set(key, null);
    return this;
  }

  /** Visits every write (`null` = delete) in insertion order. */
  forEach(visit: (key: string, value: string | null) => void): void {
    for (const [k, v] of this.writes) visit(k, v);
  }

  get size(): number {
    return this.writes.size;
  }

  toSorted(): SortedChanges {
    const writes = [...this.writes].sort(([a], [b]) => (a < b ? -1 : 1));
    return { keys: writes.map(([key]) => key), values: writes.map(([, value]) => value) };
  }
}
