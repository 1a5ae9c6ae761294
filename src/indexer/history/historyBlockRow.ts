import type { Block, BlockView, Chain } from "../../chain/node.js";
import type { BlockRow } from "./HistoryStore.js";

/** What a block did, beyond its header; a block that included no transaction and executed no receipt did nothing. */
export interface BlockWork {
  readonly transactions: number;
  readonly receipts: number;
  readonly gasBurnt: bigint;
  readonly tokensBurnt: bigint;
}

const NOTHING: BlockWork = { transactions: 0, receipts: 0, gasBurnt: 0n, tokensBurnt: 0n };

/** A block's `/v0` row: its header's fields and what it did (nothing unless given). */
export function historyBlockRow(chain: Chain, block: Block, work: BlockWork = NOTHING): BlockRow {
  return blockRowOfView(block.view, block.height === chain.genesisBlock.height, work);
}

/** A block's `/v0` row from its RPC view (the local chain's or an upstream's); genesis has no previous height. */
export function blockRowOfView(view: BlockView, genesis: boolean, work: BlockWork = NOTHING): BlockRow {
  const { header, author, chunks } = view;
  return {
    block_height: header.height,
    prev_block_height: genesis ? null : header.prev_height,
    block_hash: header.hash,
    prev_block_hash: header.prev_hash,
    block_timestamp: header.timestamp_nanosec,
    epoch_id: header.epoch_id,
    next_epoch_id: header.next_epoch_id,
    chunks_included: chunks.filter((c) => c.height_included === header.height).length,
    author_id: author,
    protocol_version: header.latest_protocol_version,
    gas_price: header.gas_price,
    block_ordinal: header.block_ordinal,
    total_supply: header.total_supply,
    num_transactions: work.transactions,
    num_receipts: work.receipts,
    gas_burnt: work.gasBurnt.toString(),
    tokens_burnt: work.tokensBurnt.toString(),
  };
}

/** The row of a chain block by height or hash, as if it did nothing (MemoryHistoryStore derives idle blocks' rows with it). */
export function idleBlockRowOf(chain: Chain): (id: number | string) => BlockRow | undefined {
  return (id) => {
    const block = typeof id === "number" ? chain.blockByHeight(id) : chain.blockByHash(id);
    return block === undefined ? undefined : historyBlockRow(chain, block);
  };
}
