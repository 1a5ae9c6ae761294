/**
 * One cached value. Walks keep a reference to it (`HashNode.held`) so a hot path reaches the
 * value without a hash-map lookup; `value` is cleared when the cache drops the entry, so a
 * reference held from elsewhere never keeps an evicted value alive (the memory bound holds).
 */
export class CacheEntry<V> {
  constructor(
    readonly key: string,
    /** Undefined once evicted. */
    public value: V | undefined,
    readonly size: number,
    /** The cache generation this entry is young in (older: it sits in the old generation). */
    public generation: number,
  ) {}
}

/**
 * A cache bounded by an estimate of the bytes its entries hold, evicting roughly least
 * recently used entries: two generations, each up to half the budget. Hits in the old
 * generation move to the young one; when the young one is full it becomes the old one and
 * the old one is dropped whole. Unlike a Map re-inserted on every hit, a hit in the young
 * generation costs one lookup, and eviction needs no per-entry bookkeeping beyond clearing the
 * dropped entries' values (one pass per rotation, so O(1) per admission).
 *
 * `use(entry)` is the lookup-free hit for a caller that kept the entry: the value while the
 * entry is cached (an old-generation entry moves to the young one, as on a keyed hit), else
 * undefined.
 */
export class NodeCache<V> {
  private young = new Map<string, CacheEntry<V>>();
  private old = new Map<string, CacheEntry<V>>();
  private youngBytes = 0;
  private oldBytes = 0;
  /** Number of rotations so far: entries of the young generation carry it. */
  generation = 0;
  hits = 0;
  misses = 0;

  constructor(readonly budgetBytes: number) {
    if (!(budgetBytes >= 0)) throw new RangeError(`cache budget must be >= 0, got ${budgetBytes}`);
  }

  get(key: string): V | undefined {
    return this.entry(key)?.value;
  }

  /** The cached entry for `key` (counted as a hit or a miss), moved to the young generation. */
  entry(key: string): CacheEntry<V> | undefined {
    const young = this.young.get(key);
    if (young !== undefined) {
      this.hits++;
      return young;
    }
    const old = this.old.get(key);
    if (old === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.promote(old);
    return old;
  }

  /** The value of a kept entry while it is cached (a hit), else undefined (not counted: the caller looks it up). */
  use(entry: CacheEntry<V>): V | undefined {
    if (entry.generation !== this.generation) {
      if (entry.value === undefined) return undefined;
      this.promote(entry);
    }
    this.hits++;
    return entry.value;
  }

  has(key: string): boolean {
    return this.young.has(key) || this.old.has(key);
  }

  set(key: string, value: V, size: number): void {
    this.add(key, value, size);
  }

  /** Caches `value` and returns its entry (the existing one for a cached key: same hash, same node); undefined when too big to cache. */
  add(key: string, value: V, size: number): CacheEntry<V> | undefined {
    const cached = this.young.get(key) ?? this.old.get(key);
    if (cached !== undefined) return cached;
    if (size > this.budgetBytes / 2) return undefined;
    const entry = new CacheEntry(key, value, size, this.generation);
    this.admit(entry);
    return entry;
  }

  private promote(entry: CacheEntry<V>): void {
    this.old.delete(entry.key);
    this.oldBytes -= entry.size;
    this.admit(entry);
  }

  private admit(entry: CacheEntry<V>): void {
    if (this.youngBytes + entry.size > this.budgetBytes / 2) {
      for (const dropped of this.old.values()) dropped.value = undefined;
      this.old = this.young;
      this.oldBytes = this.youngBytes;
      this.young = new Map();
      this.youngBytes = 0;
      this.generation++;
    }
    entry.generation = this.generation;
    this.young.set(entry.key, entry);
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
