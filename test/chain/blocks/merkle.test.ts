import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BlockMerkleTree, MemoryMerkleNodes } from "../../../src/chain/blocks/BlockMerkleTree.js";
import { combineHash, computeRootFromPath, merkleRoot, merkleRootOfHashes, merklize, type MerklePathStep } from "../../../src/chain/blocks/merkle.js";
import { base58Encode } from "@shardkit/primitives/base58";
import { BorshWriter } from "@shardkit/primitives/borshWriter";
import { ZERO_HASH } from "../../../src/chain/primitives/cryptoHash.js";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import { computeRootFromPath as verifierFold, verifyMerklePath } from "../../../src/proof/index.js";

const u32 = (n: number) => new BorshWriter().u32(n).toBytes();
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const asItems = (path: readonly MerklePathStep[]) => path.map((s) => ({ hash: base58Encode(s.hash), direction: s.direction }));

/** nearcore merkle.rs test helper `compute_root`: split at the largest power of two below the length. */
function referenceRoot(hashes: readonly Uint8Array[]): Uint8Array {
  if (hashes.length === 0) return ZERO_HASH;
  if (hashes.length === 1) return hashes[0]!;
  let sub = 1;
  while (sub * 2 < hashes.length) sub *= 2;
  return combineHash(referenceRoot(hashes.slice(0, sub)), referenceRoot(hashes.slice(sub)));
}

describe("merklize (nearcore merkle.rs)", () => {
  it("is the zero hash for nothing and sha256(borsh(item)) with an empty path for one item", () => {
    expect(merklize([])).toEqual({ root: ZERO_HASH, paths: [] });
    const one = merklize([u32(7)]);
    expect(hex(one.root)).toBe(hex(sha256(u32(7))));
    expect(one.paths).toEqual([[]]);
  });

  it("test_incorrect_path: a path verifies only its own item (111, 222, 333 as u32)", () => {
    const items = [111, 222, 333].map(u32);
    const { root, paths } = merklize(items);
    items.forEach((item, i) => {
      expect(verifyMerklePath(root, asItems(paths[i]!), item)).toBe(true);
      expect(verifyMerklePath(root, asItems(paths[(i + 1) % 3]!), item)).toBe(false);
    });
  });

  it("test_elements_order: [1, 2] and [2, 1] have different roots", () => {
    expect(hex(merkleRoot([u32(1), u32(2)]))).not.toBe(hex(merkleRoot([u32(2), u32(1)])));
  });

  it("three items: root = combine(combine(h0, h1), h2), as nearcore's merklize builds it", () => {
    const h = [1, 2, 3].map((n) => sha256(u32(n)));
    const { root, paths } = merklize([1, 2, 3].map(u32));
    expect(hex(root)).toBe(hex(combineHash(combineHash(h[0]!, h[1]!), h[2]!)));
    expect(paths[2]).toEqual([{ hash: combineHash(h[0]!, h[1]!), direction: "Left" }]);
    expect(paths[0]).toEqual([
      { hash: h[1], direction: "Right" },
      { hash: h[2], direction: "Right" },
    ]);
  });

  it("every leaf's path verifies to the root, in the chain and in the browser verifier; any flip fails (property)", () => {
    fc.assert(
      // Distinct items: equal siblings make a direction flip harmless (combine(h, h) either way).
      fc.property(fc.uniqueArray(fc.uint8Array({ minLength: 0, maxLength: 40 }), { minLength: 1, maxLength: 70, selector: hex }), fc.nat(), fc.nat(), (items, pick, byte) => {
        const { root, paths } = merklize(items);
        expect(hex(root)).toBe(hex(merkleRoot(items)));
        expect(hex(root)).toBe(hex(referenceRoot(items.map((i) => sha256(i)))));
        items.forEach((item, i) => {
          expect(hex(computeRootFromPath(paths[i]!, sha256(item)))).toBe(hex(root));
          expect(verifyMerklePath(root, asItems(paths[i]!), item)).toBe(true);
        });
        const i = pick % items.length;
        const path = paths[i]!;
        const changed = Uint8Array.from([...items[i]!, 1]);
        expect(verifyMerklePath(root, asItems(path), changed)).toBe(false);
        if (path.length > 0) {
          const k = byte % path.length;
          const flippedDir = path.map((s, j) => (j === k ? { ...s, direction: s.direction === "Left" ? ("Right" as const) : ("Left" as const) } : s));
          expect(verifyMerklePath(root, asItems(flippedDir), items[i]!)).toBe(false);
          const h = Uint8Array.from(path[k]!.hash);
          h[byte % 32]! ^= 1;
          const flippedHash = path.map((s, j) => (j === k ? { ...s, hash: h } : s));
          expect(verifyMerklePath(root, asItems(flippedHash), items[i]!)).toBe(false);
          expect(verifyMerklePath(root, asItems(path.slice(0, -1)), items[i]!)).toBe(false);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("BlockMerkleTree (nearcore PartialMerkleTree + past-block proofs)", () => {
  const leaves = Array.from({ length: 70 }, (_, i) => sha256(u32(i)));
  const nodes = new MemoryMerkleNodes();
  leaves.forEach((l) => nodes.append(l));
  const tree = new BlockMerkleTree(nodes);

  it("test_merkle_tree: the root after n blocks is nearcore's compute_root of the first n hashes", () => {
    for (let n = 0; n <= leaves.length; n++) {
      expect(hex(tree.rootAt(n))).toBe(hex(referenceRoot(leaves.slice(0, n))));
      expect(hex(tree.rootAt(n))).toBe(hex(merkleRootOfHashes(leaves.slice(0, n))));
    }
  });

  it("every block's path in every later tree folds to that tree's root (raw hash leaves); any flip fails (property)", () => {
    for (let size = 1; size <= leaves.length; size++) {
      for (let leaf = 0; leaf < size; leaf++) {
        const path = tree.pathAt(leaf, size);
        expect(hex(verifierFold(asItems(path), leaves[leaf]!))).toBe(hex(tree.rootAt(size)));
      }
    }
    fc.assert(
      fc.property(fc.integer({ min: 2, max: leaves.length }), fc.nat(), fc.nat(), (size, pick, k) => {
        const leaf = pick % size;
        const path = tree.pathAt(leaf, size);
        const step = k % path.length;
        const flipped = path.map((s, j) => (j === step ? { ...s, direction: s.direction === "Left" ? ("Right" as const) : ("Left" as const) } : s));
        expect(hex(verifierFold(asItems(flipped), leaves[leaf]!))).not.toBe(hex(tree.rootAt(size)));
        expect(hex(verifierFold(asItems(path), leaves[(leaf + 1) % size]!))).not.toBe(hex(tree.rootAt(size)));
      }),
      { numRuns: 300 },
    );
  });

  it("refuses leaves outside the tree and sizes it does not have", () => {
    expect(() => tree.pathAt(5, 5)).toThrow(RangeError);
    expect(() => tree.rootAt(71)).toThrow(RangeError);
    expect(() => tree.pathAt(-1, 3)).toThrow(RangeError);
  });
});
