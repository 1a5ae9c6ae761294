/** A step of an outcome's merkle proof, as nearcore's views give it. */
interface ProofStep {
  readonly hash: string;
  readonly direction: "Left" | "Right";
}

/**
 * Which of two outcomes of one chunk its shard executed first, from their proofs: leaf i of a
 * chunk's outcome tree is its i-th outcome (transactions, then receipts in execution order), and
 * two leaves' paths share their steps above the leaves' lowest common ancestor; at the first
 * step from the top where they differ, the one whose sibling is on its right is the left leaf.
 * (A level where a node has no sibling adds no step, but never below a common ancestor of two
 * leaves.) Negative when `a` came first; 0 for the same leaf.
 */
export function compareOutcomePositions(a: readonly ProofStep[], b: readonly ProofStep[]): number {
  for (let i = a.length - 1, j = b.length - 1; i >= 0 && j >= 0; i--, j--) {
    const x = a[i];
    const y = b[j];
    if (x === undefined || y === undefined) break;
    if (x.hash !== y.hash || x.direction !== y.direction) return x.direction === "Right" ? -1 : 1;
  }
  return 0;
}
