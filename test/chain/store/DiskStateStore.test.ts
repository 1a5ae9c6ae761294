import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { open, type Database, type RootDatabase } from "lmdb";
import { afterAll, describe, expect, it } from "vitest";
import type { SortedChanges } from "../../../src/chain/store/applyChanges.js";
import { DiskStateStore } from "../../../src/chain/store/DiskStateStore.js";
import { MemoryStateStore } from "../../../src/chain/store/MemoryStateStore.js";
import type { StateSnapshot } from "../../../src/chain/store/stateStore.js";

const dirs: string[] = [];
const envs: RootDatabase[] = [];
afterAll(async () => {
  for (const env of envs) await env.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function nodeDb(): { env: RootDatabase; nodes: Database<Buffer, Buffer> } {
  const dir = mkdtempSync(join(tmpdir(), "shardkit-nodes-"));
  dirs.push(dir);
  const env = open({ path: dir, maxDbs: 2, overlappingSync: false });
  envs.push(env);
  return { env, nodes: env.openDB<Buffer, Buffer>({ name: "nodes", encoding: "binary", keyEncoding: "binary" }) };
}

/** A disk store as a chain store drives it: staged nodes written in one transaction per "block". */
function diskStore(env: RootDatabase, nodes: Database<Buffer, Buffer>, cacheBytes: number, buildBatch: number) {
  const store = new DiskStateStore(nodes, (body) => env.transactionSync(body), { cacheBytes, buildBatch });
  const commitBlock = () => {
    env.transactionSync(() => store.writeStaged());
    store.committed();
  };
  return { store, commitBlock };
}

// Keys over a small alphabet and short lengths: shared prefixes, keys ending at branches,
// leaves at odd and even depths, identical leaves under different prefixes.
const key = fc.string({ unit: fc.constantFrom("a", "b", "\x00", "\xff", "\x10", "\x11"), minLength: 0, maxLength: 6 });
const value = fc.string({ unit: fc.constantFrom("x", "y", "\x00"), minLength: 0, maxLength: 40 });
const entries = fc.uniqueArray(fc.tuple(key, value), { selector: ([k]) => k, maxLength: 60 });
const batch = fc.uniqueArray(fc.tuple(key, fc.option(value, { nil: null })), { selector: ([k]) => k, maxLength: 30 });

const sortedEntries = (pairs: [string, string][]) => [...pairs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
const toChanges = (pairs: [string, string | null][]): SortedChanges => {
  const sorted = [...pairs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { keys: sorted.map(([k]) => k), values: sorted.map(([, v]) => v) };
};

/** Everything a reader can see of a snapshot for these probes. */
function observe(s: StateSnapshot, probes: readonly string[]) {
  const all: [string, string][] = [];
  s.scan("", undefined, (k, v) => {
    all.push([k, v]);
  });
  return {
    root: Buffer.from(s.rootHash).toString("hex"),
    all,
    gets: probes.map((p) => s.get(p) ?? null),
    scans: probes.map((p) => {
      const out: string[] = [];
      s.scan(p.slice(0, 1), p, (k) => out.length < 5 && (out.push(k), true));
      return out;
    }),
    proofs: probes.map((p) => s.prove(p.slice(0, 2)).map((n) => Buffer.from(n).toString("hex"))),
  };
}

describe("DiskStateStore", () => {
  it("gives the same roots, reads, scans and proofs as the in-memory store over random builds and updates, also after reopening from disk", () => {
    fc.assert(
      fc.property(
        entries,
        fc.array(fc.tuple(batch, fc.boolean()), { maxLength: 6 }),
        fc.array(key, { minLength: 1, maxLength: 8 }),
        fc.constantFrom(1, 3, 1000),
        fc.constantFrom(0, 2000, 1 << 20),
        (initial, updates, probes, buildBatch, cacheBytes) => {
          const { env, nodes } = nodeDb();
          const disk = diskStore(env, nodes, cacheBytes, buildBatch);
          const memory = new MemoryStateStore();
          const init = sortedEntries(initial);
          let d = disk.store.build(init.map(([k]) => k), init.map(([, v]) => v));
          let m = memory.build(init.map(([k]) => k), init.map(([, v]) => v));
          disk.commitBlock();
          expect(observe(d, probes)).toEqual(observe(m, probes));
          const roots: Uint8Array[] = [d.rootHash];
          for (const [changes, flushNow] of updates) {
            const sorted = toChanges(changes);
            d = disk.store.commit(d, sorted);
            m = memory.commit(m, sorted);
            // Before its commit (fresh nodes) and after it (read back through the cache or disk).
            expect(observe(d, probes)).toEqual(observe(m, probes));
            if (flushNow) disk.commitBlock();
            roots.push(d.rootHash);
          }
          disk.commitBlock();
          expect(observe(d, probes)).toEqual(observe(m, probes));
          // A new store on the same database (a restart) reads every root back from disk alone.
          const reopened = diskStore(env, nodes, cacheBytes, buildBatch).store;
          for (const root of roots) {
            const fromDisk = reopened.byRoot(root)!;
            expect(fromDisk).toBeDefined();
            expect(observe(fromDisk, probes)).toEqual(observe(memory.byRoot(root)!, probes));
          }
          expect(reopened.byRoot(new Uint8Array(32).fill(7))).toBeUndefined();
        },
      ),
      { numRuns: 60 },
    );
  });

  it("keeps the cache within its budget and reads evicted nodes back from disk", () => {
    const { env, nodes } = nodeDb();
    const { store, commitBlock } = diskStore(env, nodes, 64 * 1024, 500);
    const keys = Array.from({ length: 5000 }, (_, i) => `k${String(i).padStart(6, "0")}`);
    const snapshot = store.build(keys, keys.map((k) => `v-${k}`));
    commitBlock();
    for (const k of keys) expect(snapshot.get(k)).toBe(`v-${k}`);
    const stats = store.cacheStats();
    expect(stats.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(stats.diskReads).toBeGreaterThan(0);
    expect(store.stagedNodes).toBe(0);
  });

  it("reads subtrees that share nodes (one hash under two parents) correctly while the cache evicts what they hold", () => {
    // Accounts "acc-a/" and "acc-b/" hold the same suffixes and values: the nodes below the
    // nibble where they part are the same nodes (a leaf's stored key is just the part below it).
    const suffixes = Array.from({ length: 300 }, (_, i) => `k${String((i * 7919) % 1000).padStart(4, "0")}`).sort();
    const keys = ["acc-a/", "acc-b/"].flatMap((p) => suffixes.map((s) => p + s));
    const values = keys.map((k) => `v-${k.slice(6)}`);
    const memory = new MemoryStateStore().build(keys, values);
    const { env, nodes } = nodeDb();
    const roomy = diskStore(env, nodes, 1 << 24, 100_000);
    const root = roomy.store.build(keys, values).rootHash;
    roomy.commitBlock();

    // The sharing is real: with room for everything, the second account costs (almost) no LMDB reads.
    const warm = diskStore(env, nodes, 1 << 24, 100_000).store;
    const w = warm.byRoot(root)!;
    w.scan("acc-a/", undefined, () => undefined);
    const afterFirst = warm.cacheStats().diskReads;
    w.scan("acc-b/", undefined, () => undefined);
    expect(afterFirst).toBeGreaterThan(300);
    expect(warm.cacheStats().diskReads - afterFirst).toBeLessThan(3);

    // Room for everything (nodes met again under the other parent), a cache of a few pages, and
    // one that drops nodes (emptying the entries parents hold) on every page.
    const page = (snap: StateSnapshot, prefix: string, after: string | undefined) => {
      const out: [string, string][] = [];
      snap.scan(prefix, after, (k, v) => (out.length < 25 ? (out.push([k, v]), true) : false));
      return out;
    };
    for (const budget of [1 << 24, 48 * 1024, 8 * 1024]) {
      const store = diskStore(env, nodes, budget, 100_000).store;
      const s = store.byRoot(root)!;
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < suffixes.length; i += 37) {
          for (const p of ["acc-a/", "acc-b/"]) {
            const after = p + suffixes[i]!;
            expect(page(s, p, after)).toEqual(page(memory, p, after));
            expect(s.get(after)).toBe(memory.get(after));
          }
        }
        for (const p of ["acc-b/", "acc-a/"]) expect(page(s, p, undefined)).toEqual(page(memory, p, undefined));
        expect(s.prove("acc-b/k00").map((n) => Buffer.from(n).toString("hex"))).toEqual(memory.prove("acc-b/k00").map((n) => Buffer.from(n).toString("hex")));
      }
      const stats = store.cacheStats();
      expect(stats.bytes).toBeLessThanOrEqual(budget);
      if (budget < 1 << 20) expect(stats.diskReads).toBeGreaterThan(1000); // it did evict and read back
    }
  });

  it("refuses snapshots of another store", () => {
    const { env, nodes } = nodeDb();
    const { store } = diskStore(env, nodes, 1 << 20, 10);
    expect(() => store.commit(new MemoryStateStore().empty(), { keys: ["a"], values: ["b"] })).toThrow(/another store/);
  });
});
