import { ShardkitError } from "@shardkit/primitives/ShardkitError";
import type { ForkPoint } from "../fork/ForkPoint.js";
import type { ForkCache } from "./ForkCache.js";
import type { GenesisConfig } from "../genesis/GenesisConfig.js";
import type { ChunkResult } from "../runtime/applyChunk.js";
import type { KeyStateChanges } from "../runtime/StateChangeCause.js";
import type { SortedChanges } from "./applyChanges.js";
import type { StateStore } from "./stateStore.js";

/**
 * Version of the records a ChainStore writes; a data dir of another version is refused.
 * 2: trie nodes on disk, state roots and state changes with causes (`causedChanges`) in the
 * block records, and nearcore's block hashing (format 1 dirs hash blocks differently).
 * 3: the chain is read from the store, not replayed: each block record carries what its
 * successor's header needs (total supply, outcome roots, chunk hashes, the epoch's stake
 * proposals), and the store keeps the block merkle tree and outcome, chunk and height indexes.
 */
export const CHAIN_STORE_FORMAT = 4;

/**
 * Formats this shardkit reads. Format 4 stores versioned Borsh records (store/records/);
 * format 3 stored V8-serialised ones, which are still read: a writer opening a format-3 data
 * dir marks it format 4 and writes its new records in Borsh beside the old ones.
 */
export const READABLE_CHAIN_STORE_FORMATS: readonly number[] = [3, 4];

/** How a shard layout is rebuilt (see ShardLayout). */
export interface StoredLayout {
  readonly boundaryAccounts: readonly string[];
  readonly routing: "boundaries" | "hash";
  readonly shardIds: readonly number[];
}

/** Everything needed to rebuild the genesis block and its state without the genesis file. */
export interface StoredGenesis {
  readonly config: GenesisConfig;
  readonly layout: StoredLayout;
  /** Block producer account. */
  readonly author: string;
  /** True for the built-in dev genesis (its dev accounts are derived again on open). */
  readonly devGenesis: boolean;
  /**
   * Genesis trie entries by shard index (strictly increasing latin1 keys). Empty when the
   * store keeps the genesis tries themselves (its state store holds `stateRoots`).
   */
  readonly shards: readonly { readonly keys: readonly string[]; readonly values: readonly string[] }[];
  /** Genesis state root of each shard (32 bytes); absent in format 1 records. */
  readonly stateRoots?: readonly Uint8Array[];
  readonly totalSupply: bigint;
  /** base58 genesis block hash: a check that the rebuilt genesis is the stored one. */
  readonly genesisHash: string;
  /** Set for a fork: the upstream block the chain continues from (its genesis stands for it). */
  readonly fork?: ForkPoint | undefined;
}

/**
 * One produced block as stored: enough to rebuild the block from this record and its
 * parent's alone (the producer is deterministic, so the rebuilt hash is checked against
 * `hash`), its post-state (the roots in the state store) and everything the chain remembers
 * of its execution (transactions, outcomes, receipts, routed receipts, stake proposals).
 */
export interface StoredBlock {
  readonly height: number;
  /** base58 block hash. */
  readonly hash: string;
  readonly timestampNs: bigint;
  /** Per shard index: every trie write of the block (staged writes included); `null` deletes. */
  readonly stateChanges: readonly SortedChanges[];
  /**
   * Per shard index: every write of an account, access key, contract code or contract data
   * key with its cause, keys in trie order (the state changes RPCs read them; see
   * runtime/StateChangeCause.ts).
   */
  readonly causedChanges: readonly (readonly KeyStateChanges[])[];
  /** Per shard index: what the chunk did. */
  readonly chunkResults: readonly ChunkResult[];
  /**
   * Per shard index: the post-state root. With a state store that keeps nodes, reopening
   * reads these roots instead of re-applying `stateChanges` (absent in format 1 records).
   */
  readonly stateRoots: readonly Uint8Array[];
  /** Total supply after this block (the next header starts from it). */
  readonly totalSupply: bigint;
  /** Per shard index: the merkle root of the chunk's outcomes (the next block's chunk `outcome_root`). */
  readonly outcomeRoots: readonly Uint8Array[];
  /** Per shard index: base58 chunk hash (the `chunk` method finds a block by it). */
  readonly chunkHashes: readonly string[];
  /**
   * Stake proposals of this block's epoch up to and including this block, by account (the
   * latest proposal wins): returned at the next epoch boundary. Empty for most blocks.
   */
  readonly epochProposals: readonly (readonly [string, bigint])[];
  /** The producer's signatures: a rebuild hashes and does not sign again. */
  readonly signatures: { readonly approval: Uint8Array; readonly block: Uint8Array; readonly chunks: readonly Uint8Array[] };
}

/** A complete subtree root of the block merkle tree (see blocks/BlockMerkleTree.ts). */
export interface MerkleNode {
  readonly level: number;
  readonly index: number;
  readonly hash: Uint8Array;
}

/**
 * Where the chain keeps its blocks and their effects. `commitBlock` is atomic: after a crash
 * a block is either entirely there or not at all, and once it returns the block is durable
 * (for a durable store), so the chain reports a block only after its commit. Reads are
 * synchronous (see README.md in this folder for why).
 */
export interface ChainStore {
  /** True when commits survive the process (an on-disk store). */
  readonly durable: boolean;
  /** The stored genesis, or undefined for an empty store. */
  genesis(): StoredGenesis | undefined;
  /** Writes the genesis of a new chain (refused when the store already holds one). */
  initGenesis(genesis: StoredGenesis): void;
  /** Atomically appends the block after the stored head, with the merkle tree nodes it completes. */
  commitBlock(block: StoredBlock, merkleNodes: readonly MerkleNode[]): void;
  /** Height of the last committed block (undefined before any block after genesis). */
  headHeight(): number | undefined;
  block(height: number): StoredBlock | undefined;
  /** Stored blocks from `height` on, in height order. */
  blocksFrom(height: number): Iterable<StoredBlock>;
  /** Height of the block with this base58 hash. */
  heightOfBlock(hash: string): number | undefined;
  /** Height of the block that included the transaction with this base58 hash. */
  heightOfTransaction(hash: string): number | undefined;
  /** Height of the block whose chunks created the receipt with this base58 id. */
  heightOfReceipt(id: string): number | undefined;
  /** Height of the block whose chunks executed the receipt with this base58 id. */
  heightOfReceiptOutcome(id: string): number | undefined;
  /** Height of the block whose chunks dropped the transaction with this base58 hash (it no longer verified). */
  heightOfDroppedTransaction(hash: string): number | undefined;
  /** Height of the block holding the chunk with this base58 hash. */
  heightOfChunk(hash: string): number | undefined;
  /** The 32-byte hash of the block at `height` (the genesis included). */
  blockHashAt(height: number): Uint8Array | undefined;
  /** A complete subtree root of the block merkle tree (level >= 1; level 0 is `blockHashAt`). */
  merkleNode(level: number, index: number): Uint8Array | undefined;
  /**
   * Atomically drops every block above `height` with its indexes and the merkle nodes it
   * completed (sandbox revert), in time proportional to the blocks dropped; the next commit
   * is `height + 1`. `height` may be the genesis.
   */
  truncateAbove(height: number): void;
  /**
   * Runs `body`, whose commits are not flushed one by one, then makes them all durable with one
   * flush that does not block the event loop (a fast-forward's turn: one fsync instead of one per
   * block, and requests are answered during it). Its blocks are visible as they commit and
   * survive a killed process at once (the OS holds committed pages); they survive a power cut
   * once the promise resolves, which rejects with ChainStoreError if the flush fails.
   */
  withOneFlush<T>(body: () => T): Promise<T>;
  /**
   * The state store whose new nodes each `commitBlock` (and `initGenesis`) writes in the same
   * transaction: every stored root stays readable through it.
   */
  stateStore(): StateStore;
  /** What a fork fetched from its upstream at the block with this 32-byte hash (kept across restarts by a durable store). */
  forkCache(forkBlockHash: Uint8Array): ForkCache;
  /** Flushes and releases the store; further calls fail. */
  close(): Promise<void>;
}

/** A data dir that cannot be used (other format, other chain, unwritable). */
export class ChainStoreError extends ShardkitError<"CHAIN_STORE"> {
  override readonly name = "ChainStoreError";
  constructor(message: string, options?: { cause?: unknown }) {
    super("CHAIN_STORE", message, options);
  }
}
