/**
 * Least-recently-used cache bounded by an estimate of the bytes its entries hold. A Map keeps
 * insertion order, so a hit re-inserts its key at the end and eviction takes from the front.
 */
export class NodeCache<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private used = 0;
  hits = 0;
  misses = 0;

  constructor(readonly budgetBytes: number) {
    if (!(budgetBytes >= 0)) throw new RangeError(`cache budget must be >= 0, got ${budgetBytes}`);
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  set(key: string, value: V, size: number): void {
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.used -= old.size;
      this.entries.delete(key);
    }
    if (size > this.budgetBytes) return;
    this.entries.set(key, { value, size });
    this.used += size;
    for (const [k, e] of this.entries) {
      if (this.used <= this.budgetBytes) break;
      this.entries.delete(k);
      this.used -= e.size;
    }
  }

  /** Estimated bytes held. */
  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.entries.size;
  }
}
