import type { BlockPoint } from "../../errors.js";
import type { Block } from "../context.js";

/** `{block_height, block_hash}`: the block every query result and most query errors carry. */
export function blockPoint(block: Block): BlockPoint {
  return { block_height: block.height, block_hash: block.hash };
}
