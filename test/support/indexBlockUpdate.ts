import type { IndexBlockUpdate } from "../../src/indexer/IndexStore.js";

/** A block update for index tests: no rows unless `over` gives some. */
export function blockUpdate(height: number, timestampNs: bigint, over: Partial<IndexBlockUpdate> = {}): IndexBlockUpdate {
  return {
    height,
    timestampNs,
    accountStates: new Map(),
    accessKeys: [],
    ft: [],
    nft: [],
    pools: [],
    balancesRead: false,
    ...over,
  };
}
