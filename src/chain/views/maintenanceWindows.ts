import type { ChainReader } from "../ChainReader.js";
import { epochByIndex, epochOfBlock } from "./epochs.js";

export interface HeightRange {
  start: number;
  /** Exclusive. */
  end: number;
}

/**
 * nearcore's maintenance windows: the runs of heights from the head to the end of its epoch
 * in which `accountId` is neither the block producer nor a chunk producer. On this chain
 * the single block producer also produces every chunk.
 */
export function maintenanceWindows(chain: ChainReader, accountId: string): HeightRange[] {
  const head = chain.head();
  const epoch = epochOfBlock(chain, head);
  const nextEpochStart = epochByIndex(chain, epoch.index + 1)?.startHeight ?? epoch.lastHeight + 1;
  // One producer makes every block and chunk: it is never free, anyone else always is.
  if (accountId === chain.blockProducer.accountId) return [];
  return [{ start: head.height, end: nextEpochStart }];
}
