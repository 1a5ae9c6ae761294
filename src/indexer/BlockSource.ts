import type { AccountStateRow, Awaitable, FtBalance, IndexBlockUpdate } from "./IndexStore.js";
import type { ExecutedReceipt } from "./tokenActivity.js";

/** An (account, token contract) pair whose FT balance is read. */
export interface FtPair {
  readonly accountId: string;
  readonly contractId: string;
}

/**
 * What one block did, as the REST index needs it, from wherever it comes (the local chain's
 * commit, an upstream's RPC): the IndexBuilder derives the block's IndexBlockUpdate from it.
 */
export interface IndexBlockInput {
  readonly height: number;
  /** The block's hash (base58). */
  readonly hash: string;
  readonly timestampNs: bigint;
  /** Account → its state after the block, or null when the block deleted it. */
  readonly accountStates: ReadonlyMap<string, AccountStateRow | null>;
  /** Access keys the block added, changed or deleted (permission null), each with its value after the block. */
  readonly accessKeys: IndexBlockUpdate["accessKeys"];
  /** The receipts the block executed, in execution order: token activity comes from their calls and logs. */
  readonly receipts: readonly ExecutedReceipt[];
  /**
   * Token rows that exist without a receipt announcing them (the genesis block's FT balances,
   * NFT owners and pool delegators), balances already read.
   */
  readonly tokens?: Pick<IndexBlockUpdate, "ft" | "nft" | "pools">;
  /**
   * Reads FT balances at this block, one answer per pair in order; undefined when the source
   * reads none at this block (no contract host, or an upstream's genesis).
   */
  readonly readFtBalances?: (pairs: readonly FtPair[]) => Awaitable<readonly FtBalance[]>;
}

/**
 * Where blocks come from for an indexer: the local chain's block commits (LocalBlockSource) or
 * an upstream node's RPC (UpstreamBlockSource). Both give the same IndexBlockInput for the same
 * block, so every IndexStore is fed the same updates whichever source it follows.
 */
export interface BlockSource<I extends IndexBlockInput = IndexBlockInput> {
  /** The first block an empty index applies (the chain's genesis, or where a follower starts). */
  genesisHeight(): Awaitable<number>;
  /** The newest block the source gives (the local head; an upstream's final head). */
  headHeight(): Awaitable<number>;
  /** Block `height` as an input; undefined for a height without a block (no producer made one). */
  block(height: number): Awaitable<I | undefined>;
}
