import type { StateSnapshot } from "../store/stateStore.js";
import type { BlockView } from "./blockView.js";

/**
 * A produced block. `view` is the nearcore-shaped JSON (shared, do not mutate);
 * `postState[i]` is shard i's state after the block's chunks were applied, which is what
 * reads "at this block" see.
 */
export class Block {
  constructor(
    readonly height: number,
    /** base58 block hash */
    readonly hash: string,
    readonly hashBytes: Uint8Array,
    /** Exact block time in Unix nanoseconds. */
    readonly timestampNs: bigint,
    readonly view: BlockView,
    /** By shard index (shard order). */
    readonly postState: readonly StateSnapshot[],
    /** Total supply after this block (genesis supply minus every token burnt so far). */
    readonly totalSupply: bigint,
  ) {}
}
