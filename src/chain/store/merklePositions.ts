/**
 * Positions of the block merkle tree's subtree roots that appending leaf `leaf` (the block
 * at genesis height + leaf) completes: level k (>= 1) whenever 2^k divides leaf + 1. A store
 * writes them with the block and a revert that drops the block drops them.
 */
export function merklePositionsCompletedBy(leaf: number): { level: number; index: number }[] {
  const out: { level: number; index: number }[] = [];
  for (let k = 1; (leaf + 1) % 2 ** k === 0; k++) out.push({ level: k, index: (leaf + 1) / 2 ** k - 1 });
  return out;
}
