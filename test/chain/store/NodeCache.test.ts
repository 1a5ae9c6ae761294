import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NodeCache, type CacheEntry } from "../../../src/chain/store/NodeCache.js";

const keys = ["a", "b", "c", "d", "e", "f", "g", "h"];
const op = fc.oneof(
  fc.record({ kind: fc.constant("add" as const), key: fc.constantFrom(...keys), size: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant("get" as const), key: fc.constantFrom(...keys) }),
  // Uses the n-th entry handed out so far (modulo their number), as a held reference would.
  fc.record({ kind: fc.constant("use" as const), n: fc.nat() }),
);

describe("NodeCache", () => {
  it("a held entry gives its value while cached and is emptied when its generation is dropped", () => {
    // Budget 100: each generation holds up to 50 bytes.
    const cache = new NodeCache<string>(100);
    const a = cache.add("a", "A", 20)!;
    expect(cache.use(a)).toBe("A");
    cache.add("b", "B", 20);
    cache.add("c", "C", 20); // young full: a and b become the old generation
    expect(a.generation).toBe(cache.generation - 1); // in the old generation, still cached
    expect(cache.use(a)).toBe("A"); // moves it to the young one, as a keyed hit would
    expect(a.generation).toBe(cache.generation);
    const d = cache.add("d", "D", 20)!; // rotation: b (old) dropped; c and a old
    expect(cache.has("b")).toBe(false);
    expect(cache.has("a")).toBe(true);
    cache.add("e", "E", 20);
    cache.add("f", "F", 20); // rotation: c and a dropped
    expect(cache.has("a")).toBe(false);
    expect(a.value).toBeUndefined(); // nothing evicted stays reachable through a held entry
    expect(cache.use(a)).toBeUndefined();
    expect(d.value).toBe("D");
    // Re-adding the key makes a new entry; the old handle stays empty.
    const a2 = cache.add("a", "A", 20)!;
    expect(a2).not.toBe(a);
    expect(cache.use(a)).toBeUndefined();
    expect(cache.use(a2)).toBe("A");
    expect(cache.bytes).toBeLessThanOrEqual(100);
  });

  it("does not hold what is too big to cache", () => {
    const cache = new NodeCache<string>(100);
    expect(cache.add("big", "X", 51)).toBeUndefined();
    expect(cache.has("big")).toBe(false);
    expect(new NodeCache<string>(0).add("a", "A", 1)).toBeUndefined();
  });

  it("using held entries behaves as keyed lookups: same contents, same evictions; evicted entries are empty", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), fc.constantFrom(40, 100, 300), (ops, budget) => {
        // `held` uses entries it kept; `keyed` does the same reads by key (what the store did before).
        const held = new NodeCache<string>(budget);
        const keyed = new NodeCache<string>(budget);
        const handed: CacheEntry<string>[] = [];
        for (const o of ops) {
          if (o.kind === "add") {
            const value = `${o.key}:${o.size}`;
            const entry = held.add(o.key, value, o.size);
            keyed.add(o.key, value, o.size);
            if (entry !== undefined && !handed.includes(entry)) handed.push(entry);
          } else if (o.kind === "get") {
            expect(held.get(o.key)).toBe(keyed.get(o.key));
          } else if (handed.length > 0) {
            const entry = handed[o.n % handed.length]!;
            const before = entry.value;
            const got = held.use(entry);
            expect(got).toBe(before);
            // A held entry that was dropped: the caller falls back to the keyed lookup.
            expect(got ?? held.get(entry.key)).toBe(keyed.get(entry.key));
            if (got !== undefined) expect(entry.generation).toBe(held.generation);
          }
          expect(held.bytes).toBe(keyed.bytes);
          expect(held.bytes).toBeLessThanOrEqual(budget);
          for (const k of keys) {
            expect(held.has(k)).toBe(keyed.has(k));
            // Exactly the cached key's entry has a value: evicted ones keep nothing alive.
            const live = handed.filter((e) => e.key === k && e.value !== undefined);
            expect(live.length).toBe(held.has(k) ? 1 : 0);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
