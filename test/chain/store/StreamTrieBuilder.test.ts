import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StreamTrieBuilder, commonNibbles } from "../../../src/chain/store/StreamTrieBuilder.js";
import { Trie } from "../../../src/chain/store/Trie.js";
import type { LoadedNode, NodeSource } from "../../../src/chain/store/trieNode.js";

// Small byte alphabet so keys share prefixes, end inside others (branch values) and cross 0x80.
const byte = fc.constantFrom(0x00, 0x01, 0x0f, 0x10, 0x11, 0x2c, 0x7f, 0x80, 0xf0, 0xff);
const key = fc.array(byte, { minLength: 0, maxLength: 6 }).map((b) => Buffer.from(b).toString("latin1"));
const value = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 0, maxLength: 40 }).map((b) => Buffer.from(b).toString("latin1"));
const entries = fc.uniqueArray(fc.tuple(key, value), { selector: ([k]) => k, maxLength: 60 }).map((e) => e.sort((a, b) => (a[0] < b[0] ? -1 : 1)));

const nowhere: NodeSource = {
  load(): LoadedNode {
    throw new Error("the builder never reads nodes back");
  },
};

function stream(sorted: readonly (readonly [string, string])[]): { root: string | undefined; nodes: Map<string, string> } {
  const nodes = new Map<string, string>();
  const builder = new StreamTrieBuilder((hash, encoding) => {
    // Identical subtrees (same suffix and value under two paths) arrive once per position.
    nodes.set(hash, Buffer.from(encoding).toString("hex"));
  }, nowhere);
  for (const [k, v] of sorted) builder.add(k, v);
  return { root: builder.finish(), nodes };
}

describe("StreamTrieBuilder", () => {
  it("builds the same root and the same nodes as building all keys at once", () => {
    fc.assert(
      fc.property(entries, (sorted) => {
        const trie = Trie.fromSorted(sorted.map(([k]) => k), sorted.map(([, v]) => v));
        const { root, nodes } = stream(sorted);
        if (sorted.length === 0) {
          expect(root).toBeUndefined();
          return;
        }
        expect(Buffer.from(root!, "latin1").toString("hex")).toBe(Buffer.from(trie.rootHash()).toString("hex"));
        // Every node of the trie (and nothing else) went to the sink.
        const expected = new Set(trie.prove("").map((n) => Buffer.from(n).toString("hex")));
        expect(new Set(nodes.values())).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it("refuses keys out of order", () => {
    const builder = new StreamTrieBuilder(() => {}, nowhere);
    builder.add("b", "1");
    expect(() => builder.add("a", "2")).toThrow(/strictly increasing/);
    expect(() => builder.add("b", "2")).toThrow(/strictly increasing/);
  });

  it("counts shared nibbles, including half bytes and prefixes", () => {
    expect(commonNibbles("\x12\x34", "\x12\x35")).toBe(3);
    expect(commonNibbles("\x12\x34", "\x12\x44")).toBe(2);
    expect(commonNibbles("\x12", "\x12\x44")).toBe(2);
    expect(commonNibbles("", "\x12")).toBe(0);
    expect(commonNibbles("\x12", "\x22")).toBe(0);
  });
});
