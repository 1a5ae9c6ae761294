/** Block finality levels as the RPC names them. */
export type Finality = "optimistic" | "near-final" | "final";

const FINALITY_LAG: Record<string, number | undefined> = { optimistic: 0, "near-final": 1, final: 2 };

/**
 * Height a finality level resolves to (doomslug-like, one producer): optimistic = head,
 * near-final = head - 1 (head.last_ds_final_block), final = head - 2
 * (head.last_final_block), never below genesis.
 */
export function finalityHeight(finality: Finality, headHeight: number, genesisHeight: number): number {
  const lag = FINALITY_LAG[finality];
  if (lag === undefined) throw new RangeError(`unknown finality ${JSON.stringify(finality)}`);
  return Math.max(genesisHeight, headHeight - lag);
}
