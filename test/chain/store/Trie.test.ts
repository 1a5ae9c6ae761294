import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Trie } from "../../../src/chain/store/Trie.js";
import { ChangeSet } from "../../../src/chain/store/changeSet.js";
import { BranchNode, ExtensionNode, LeafNode, type TrieNode } from "../../../src/chain/store/trieNode.js";

// Small byte alphabet so random keys share prefixes, end inside others, and cross 0x80.
const byte = fc.constantFrom(0x00, 0x01, 0x0f, 0x10, 0x11, 0x2c, 0x7f, 0x80, 0xf0, 0xff);
const key = fc.array(byte, { minLength: 0, maxLength: 5 }).map((b) => Buffer.from(b).toString("latin1"));
const value = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 0, maxLength: 4 }).map((b) => Buffer.from(b).toString("latin1"));
const write = fc.tuple(key, fc.option(value, { nil: null, freq: 4 }));
const batches = fc.array(fc.array(write, { maxLength: 12 }), { minLength: 1, maxLength: 6 });

function applyBatch(trie: Trie, model: Map<string, string>, batch: [string, string | null][]): Trie {
  const cs = new ChangeSet();
  for (const [k, v] of batch) {
    if (v === null) {
      cs.delete(k);
      model.delete(k);
    } else {
      cs.set(k, v);
      model.set(k, v);
    }
  }
  return trie.apply(cs.toSorted());
}

function sortedEntries(model: Map<string, string>): [string, string][] {
  return [...model.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

function fromModel(model: Map<string, string>): Trie {
  const e = sortedEntries(model);
  return Trie.fromSorted(
    e.map((x) => x[0]),
    e.map((x) => x[1]),
  );
}

function popcount(m: number): number {
  let c = 0;
  for (; m; m &= m - 1) c++;
  return c;
}

/** Checks the canonical-form invariants the encoder and verifier rely on. */
function checkCanonical(node: TrieNode | null, depth: number): void {
  if (node === null || node instanceof LeafNode) {
    if (node) expect(node.depth).toBe(depth);
    return;
  }
  if (node instanceof ExtensionNode) {
    expect(node.path.length).toBeGreaterThan(0);
    expect(node.child).toBeInstanceOf(BranchNode);
    checkCanonical(node.child, depth + node.path.length);
    return;
  }
  if (!(node instanceof BranchNode)) throw new Error("an in-memory trie holds no references");
  const entries = node.children.length + (node.value === undefined ? 0 : 1);
  expect(entries).toBeGreaterThanOrEqual(2);
  for (const c of node.children) checkCanonical(c, depth + 1);
}

describe("Trie", () => {
  it("behaves as a sorted map: get and prefix/cursor scans match a naive model", () => {
    fc.assert(
      fc.property(batches, key, key, (bs, prefix, cursor) => {
        let trie = Trie.EMPTY;
        const model = new Map<string, string>();
        for (const b of bs) trie = applyBatch(trie, model, b);
        checkCanonical(trie.root, 0);
        for (const [k, v] of model) expect(trie.get(k)).toBe(v);
        for (const b of bs) for (const [k] of b) expect(trie.get(k)).toBe(model.get(k));
        expect(trie.get(prefix)).toBe(model.get(prefix));
        const all = sortedEntries(model);
        expect(trie.entries()).toEqual(all);
        expect(trie.entries(prefix)).toEqual(all.filter(([k]) => k.startsWith(prefix)));
        expect(trie.entries(prefix, cursor)).toEqual(all.filter(([k]) => k.startsWith(prefix) && k > cursor));
      }),
      { numRuns: 400 },
    );
  });

  it("root hash depends only on contents, not on insertion order or batching", () => {
    fc.assert(
      fc.property(batches, fc.integer({ min: 1, max: 5 }), (bs, chunk) => {
        let trie = Trie.EMPTY;
        const model = new Map<string, string>();
        for (const b of bs) trie = applyBatch(trie, model, b);
        // Same final contents, inserted in reverse order in batches of `chunk` keys.
        const rev = sortedEntries(model).reverse();
        let other = Trie.EMPTY;
        const scratch = new Map<string, string>();
        for (let i = 0; i < rev.length; i += chunk) other = applyBatch(other, scratch, rev.slice(i, i + chunk));
        const bulk = fromModel(model);
        expect(Buffer.from(trie.rootHash()).toString("hex")).toBe(Buffer.from(bulk.rootHash()).toString("hex"));
        expect(Buffer.from(other.rootHash()).toString("hex")).toBe(Buffer.from(bulk.rootHash()).toString("hex"));
      }),
      { numRuns: 300 },
    );
  });

  it("keeps old roots readable and unchanged after later batches", () => {
    fc.assert(
      fc.property(batches, (bs) => {
        let trie = Trie.EMPTY;
        const model = new Map<string, string>();
        const versions: { trie: Trie; entries: [string, string][]; hash: string }[] = [];
        for (const b of bs) {
          trie = applyBatch(trie, model, b);
          versions.push({ trie, entries: sortedEntries(model), hash: Buffer.from(trie.rootHash()).toString("hex") });
        }
        for (const v of versions) {
          expect(v.trie.entries()).toEqual(v.entries);
          expect(Buffer.from(v.trie.rootHash()).toString("hex")).toBe(v.hash);
          expect(Buffer.from(fromModel(new Map(v.entries)).rootHash()).toString("hex")).toBe(v.hash);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("has the all-zero root when empty, also after deleting everything", () => {
    expect(Trie.EMPTY.rootHash()).toEqual(new Uint8Array(32));
    const t = Trie.EMPTY.apply({ keys: ["a", "ab"], values: ["1", "2"] });
    expect(t.rootHash()).not.toEqual(new Uint8Array(32));
    const gone = t.apply({ keys: ["a", "ab"], values: [null, null] });
    expect(gone.root).toBeNull();
    expect(gone.rootHash()).toEqual(new Uint8Array(32));
  });

  it("shares untouched subtrees and returns the same trie for a no-op batch", () => {
    const keys = ["\x01a", "\x01b", "\x02a", "\x02b"];
    const t = Trie.fromSorted(keys, ["1", "2", "3", "4"]);
    expect(t.apply({ keys: ["\x01a"], values: ["1"] })).toBe(t);
    expect(t.apply({ keys: ["\x03"], values: [null] })).toBe(t);
    const t2 = t.apply({ keys: ["\x01a"], values: ["9"] });
    const b1 = t.root as BranchNode;
    const b2 = t2.root as BranchNode;
    // Root branches at the first nibble (0) → a branch on nibble 1 vs 2; the "\x02" side is shared.
    expect(b2).not.toBe(b1);
    expect(t2.get("\x02b")).toBe("4");
  });

  it("rebuilds only nodes on changed paths, each once, and shares the rest", () => {
    const keys = Array.from({ length: 3000 }, (_, i) => `\x09acc,${(i * 7919).toString(36)}`).sort();
    const old = Trie.fromSorted(keys, keys.map((k) => `v${k}`));
    const cs = new ChangeSet();
    for (let i = 0; i < 3000; i += 61) cs.set(keys[i]!, "changed");
    for (let i = 5; i < 3000; i += 97) cs.delete(keys[i]!);
    cs.set("\x09acc,new", "x").set("\x09acc,zzzz", "y");
    const batch = cs.toSorted();
    const next = old.apply(batch);

    const all = (t: Trie) => {
      const out: TrieNode[] = [];
      const walk = (n: TrieNode) => {
        out.push(n);
        if (n instanceof ExtensionNode) walk(n.child);
        else if (n instanceof BranchNode) n.children.forEach(walk);
      };
      if (t.root) walk(t.root);
      return out;
    };
    const oldNodes = new Set(all(old));
    const newNodes = all(next);
    expect(new Set(newNodes).size).toBe(newNodes.length); // a tree: no node referenced twice
    // Nodes on the path of each changed key in the new trie.
    const onPaths = new Set<TrieNode>();
    for (const key of batch.keys) {
      let n: TrieNode | null = next.root;
      let depth = 0;
      while (n !== null) {
        onPaths.add(n);
        if (n instanceof LeafNode) break;
        if (n instanceof ExtensionNode) {
          depth += n.path.length;
          n = n.child;
          continue;
        }
        if (key.length * 2 === depth || !(n instanceof BranchNode)) break;
        const c = key.charCodeAt(depth >> 1);
        const nib = depth % 2 === 0 ? c >> 4 : c & 15;
        n = (n.mask >> nib) & 1 ? n.children[popcount(n.mask & ((1 << nib) - 1))]! : null;
        depth++;
      }
    }
    // Children of path nodes may be fresh too: the remainder of a split extension, or a
    // leaf moved up when its sibling was deleted. Nothing deeper is rebuilt.
    const nearPaths = new Set<TrieNode>(onPaths);
    for (const n of onPaths) {
      if (n instanceof ExtensionNode) nearPaths.add(n.child);
      else if (n instanceof BranchNode) n.children.forEach((c) => nearPaths.add(c));
    }
    const fresh = newNodes.filter((n) => !oldNodes.has(n));
    expect(fresh.length).toBeGreaterThan(0);
    for (const n of fresh) expect(nearPaths.has(n)).toBe(true);
    expect(fresh.length).toBeLessThan(newNodes.length / 3); // most of the trie is shared
  });

  it("rejects unsorted or duplicate change keys", () => {
    expect(() => Trie.EMPTY.apply({ keys: ["b", "a"], values: ["1", "2"] })).toThrow(/strictly increasing/);
    expect(() => Trie.fromSorted(["a", "a"], ["1", "2"])).toThrow(/strictly increasing/);
  });

  it("pins the root hash of a small trie (golden vector for the node encoding)", () => {
    const t = Trie.fromSorted(["a", "ab", "b"], ["1", "2", "3"]);
    expect(Buffer.from(t.rootHash()).toString("hex")).toMatchInlineSnapshot(`"3380cd63ea6b5bdf2467990df9d000a0fa3241c44a6419060cffa901132008fb"`);
  });
});
