/**
 * A cache bounded by an estimate of the bytes its entries hold, evicting roughly least
 * recently used entries: two generations, each up to half the budget. Hits in the old
 * generation move to the young one; when the young one is full it becomes the old one and
 * the old one is dropped whole. Unlike a Map re-inserted on every hit, a hit in the young
 * generation costs one lookup, and eviction needs no per-entry bookkeeping.
 */
export class NodeCache<V> {
  private young = new Map<string, { value: V; size: number }>();
  private old = new Map<string, { value: V; size: number }>();
  private youngBytes = 0;
  private oldBytes = 0;
  hits = 0;
  misses = 0;

  constructor(readonly budgetBytes: number) {
    if (!(budgetBytes >= 0)) throw new RangeError(`cache budget must be >= 0, got ${budgetBytes}`);
  }

  get(key: string): V | undefined {
    const young = this.young.get(key);
    if (young !== undefined) {
      this.hits++;
      return young.value;
    }
    const old = this.old.get(key);
    if (old === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.old.delete(key);
    this.oldBytes -= old.size;
    this.admit(key, old);
    return old.value;
  }

  has(key: string): boolean {
    return this.young.has(key) || this.old.has(key);
  }

  set(key: string, value: V, size: number): void {
    if (this.young.has(key) || this.old.has(key)) return; // same hash, same node
    if (size > this.budgetBytes / 2) return;
    this.admit(key, { value, size });
  }

  private admit(key: string, entry: { value: V; size: number }): void {
    if (this.youngBytes + entry.size > this.budgetBytes / 2) {
      this.old = this.young;
      this.oldBytes = this.youngBytes;
      this.young = new Map();
      this.youngBytes = 0;
    }
    this.young.set(key, entry);
    this.youngBytes += entry.size;
  }

  /** Estimated bytes held (at most the budget). */
  get bytes(): number {
    return this.youngBytes + this.oldBytes;
  }

  get size(): number {
    return this.young.size + this.old.size;
  }
}
