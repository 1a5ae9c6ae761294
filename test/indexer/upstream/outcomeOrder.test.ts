import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { merklePathsOfHashes } from "../../../src/chain/blocks/merkle.js";
import { compareOutcomePositions } from "../../../src/indexer/upstream/outcomeOrder.js";

describe("compareOutcomePositions", () => {
  it("puts the outcomes of a chunk back in execution order from their proofs alone, for every tree size up to 70 leaves", () => {
    for (let n = 1; n <= 70; n++) {
      const leaves = Array.from({ length: n }, (_, i) => new Uint8Array(createHash("sha256").update(`outcome ${n}.${i}`).digest()));
      const proofs = merklePathsOfHashes(leaves).map((path, leaf) => ({ leaf, proof: path.map((step) => ({ hash: Buffer.from(step.hash).toString("hex"), direction: step.direction })) }));
      // A fixed shuffle (reversed, then odd leaves first), so the sort has work to do.
      const shuffled = [...proofs].reverse().sort((a, b) => (b.leaf % 2) - (a.leaf % 2));
      const sorted = shuffled.sort((a, b) => compareOutcomePositions(a.proof, b.proof)).map((p) => p.leaf);
      expect({ n, sorted }).toEqual({ n, sorted: proofs.map((p) => p.leaf) });
    }
  });

  it("finds a leaf equal to itself", () => {
    const leaves = [1, 2, 3].map((i) => new Uint8Array(32).fill(i));
    const path = merklePathsOfHashes(leaves)[2]!.map((step) => ({ hash: Buffer.from(step.hash).toString("hex"), direction: step.direction }));
    expect(compareOutcomePositions(path, path)).toBe(0);
  });
});
