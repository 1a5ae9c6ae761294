/**
 * A map of at most `capacity` entries that forgets the least recently used one first (a Map
 * keeps insertion order: a hit moves its entry to the end). For the chain's read caches,
 * whose entries are rebuilt from the store on a miss, so the bound is what memory costs.
 */
export class LruCache<K, V> {
  private readonly map = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError(`cache capacity must be an integer >= 1, got ${capacity}`);
  }

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) {
      const oldest = this.map.keys().next();
      if (!oldest.done) this.map.delete(oldest.value);
    }
  }

  /** The cached value, or `load(key)` cached (an undefined result is not cached). */
  getOrLoad(key: K, load: (key: K) => V | undefined): V | undefined {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const value = load(key);
    if (value !== undefined) this.set(key, value);
    return value;
  }

  /** Drops every entry `drop` selects (a revert forgets what it undid). */
  deleteWhere(drop: (key: K, value: V) => boolean): void {
    for (const [key, value] of this.map) if (drop(key, value)) this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }
}
