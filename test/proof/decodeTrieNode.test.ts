import { describe, expect, it } from "vitest";
import { encodeNode } from "../../src/chain/store/nodeEncoding.js";
import { BranchNode, ExtensionNode, LeafNode } from "../../src/chain/store/trieNode.js";
import { TrieNodeDecodeError, decodeTrieNode } from "../../src/proof/decodeTrieNode.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const h = (s: string) => new Uint8Array(Buffer.from(s, "hex"));

describe("trie node encoding", () => {
  const leafA = new LeafNode("ab", "v", 1); // remaining nibbles: 1, 6, 2 (odd count)
  const leafB = new LeafNode("ac", "", 3);
  const branch = new BranchNode((1 << 2) | (1 << 3), [leafA, leafB], "x", "a");
  const ext = new ExtensionNode("\x06\x01", branch);

  it("pins the byte layout of each node kind", () => {
    expect(hex(encodeNode(leafA))).toBe("00" + "03000000" + "1620" + "01000000" + "76");
    expect(hex(encodeNode(leafB))).toBe("00" + "01000000" + "30" + "00000000");
    const enc = encodeNode(branch);
    expect(hex(enc.slice(0, 3))).toBe("020c00");
    expect(enc.length).toBe(3 + 64 + 1 + 4 + 1);
    expect(hex(enc.slice(67))).toBe("01" + "01000000" + "78");
    expect(hex(encodeNode(ext).slice(0, 6))).toBe("01" + "02000000" + "61");
  });

  it("decodes what the chain encodes", () => {
    expect(decodeTrieNode(encodeNode(leafA))).toEqual({ kind: "leaf", path: Uint8Array.of(1, 6, 2), value: h("76") });
    const b = decodeTrieNode(encodeNode(branch));
    expect(b.kind).toBe("branch");
    if (b.kind === "branch") {
      expect(b.children.map((c) => c !== undefined)).toEqual([false, false, true, true, ...Array(12).fill(false)]);
      expect(b.value).toEqual(h("78"));
    }
    const e = decodeTrieNode(encodeNode(ext));
    expect(e).toMatchObject({ kind: "extension", path: Uint8Array.of(6, 1) });
  });

  it.each([
    ["empty input", "", /truncated/],
    ["unknown tag", "05", /unknown node tag 5/],
    ["truncated leaf", "0003000000", /truncated/],
    ["trailing bytes", "00" + "00000000" + "00000000" + "ff", /trailing/],
    ["padding nibble set", "00" + "01000000" + "31" + "00000000", /padding nibble/],
    ["empty extension path", "01" + "00000000" + "00".repeat(32), /empty path/],
    ["branch with one child and no value", "02" + "0100" + "00".repeat(32) + "00", /non-canonical branch/],
    ["branch with nothing", "02" + "0000" + "01" + "00000000", /non-canonical branch/],
    ["bad value flag", "02" + "0300" + "00".repeat(64) + "02", /flag/],
  ])("rejects %s", (_name, bytes, message) => {
    expect(() => decodeTrieNode(h(bytes))).toThrow(TrieNodeDecodeError);
    expect(() => decodeTrieNode(h(bytes))).toThrow(message);
  });
});
