import type { ChainReader } from "../ChainReader.js";
import type { Block } from "../blocks/Block.js";
import { ZERO_HASH_BASE58 } from "../primitives/cryptoHash.js";

/**
 * Epoch arithmetic over the chain's public API, following the rules the block producer
 * writes into headers (blocks/BlockProducer.ts): the genesis block and the next
 * `epoch_length` blocks form epoch 0; epoch e's id is the zero hash for e = 0, the genesis
 * hash for e = 1 and the hash of the last block of epoch e - 2 after that.
 */
export interface EpochRef {
  /** 0 for the first epoch (nearcore's `epoch_height` is index + 1). */
  readonly index: number;
  readonly startHeight: number;
  /** Height of the epoch's last block (which may not be produced yet). */
  readonly lastHeight: number;
  readonly id: string;
}

export function epochIndexOfHeight(chain: ChainReader, height: number): number {
  const g = chain.genesisBlock.height;
  return height <= g ? 0 : Math.floor((height - g - 1) / chain.config.epochLength);
}

/** The epoch with index `index`; its id needs the block that names it, so only epochs up to the head's next one resolve. */
export function epochByIndex(chain: ChainReader, index: number): EpochRef | undefined {
  const g = chain.genesisBlock.height;
  const length = chain.config.epochLength;
  const id = index === 0 ? ZERO_HASH_BASE58 : index === 1 ? chain.genesisBlock.hash : chain.blockByHeight(g + (index - 1) * length)?.hash;
  if (id === undefined) return undefined;
  return { index, startHeight: index === 0 ? g : g + 1 + index * length, lastHeight: g + (index + 1) * length, id };
}

export function epochOfBlock(chain: ChainReader, block: Block): EpochRef {
  return epochByIndex(chain, epochIndexOfHeight(chain, block.height))!;
}

/** The epoch an id names, if it is the id of an epoch the chain has started (or the next one its head announces). */
export function epochById(chain: ChainReader, epochId: string): EpochRef | undefined {
  if (epochId === ZERO_HASH_BASE58) return epochByIndex(chain, 0);
  if (epochId === chain.genesisBlock.hash) return epochByIndex(chain, 1);
  const block = chain.blockByHash(epochId);
  if (block === undefined) return undefined;
  const offset = block.height - chain.genesisBlock.height;
  const length = chain.config.epochLength;
  if (offset <= 0 || offset % length !== 0) return undefined;
  return epochByIndex(chain, offset / length + 1);
}
