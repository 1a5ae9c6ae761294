import type { BlockCommit } from "../blockCommit.js";
import { base58Decode, base58Encode } from "@shardkit/primitives/base58";
import type { ChunkResult } from "../runtime/applyChunk.js";
import type { InvalidTxErrorJson } from "../runtime/invalidTxError.js";
import type { Receipt } from "../runtime/receipt.js";
import type { OutcomeRecord } from "../runtime/transactionStatus.js";
import { ChainStoreError, type ChainStore, type MerkleNode, type StoredBlock } from "../store/ChainStore.js";
import { LruCache } from "../store/LruCache.js";
import type { DecodedSignedTransaction } from "../transaction/index.js";
import { recordedStateChanges } from "../views/BlockStateChanges.js";
import type { ChunkBody } from "../views/ChunkBodies.js";
import type { StateSnapshot, StateStore } from "../store/stateStore.js";
import { Block, type BlockParent } from "./Block.js";

/**
 * Blocks rebuilt from their records: the most recently used ones, 256 (one block with its
 * views is a few KB; the head and the blocks finality and validity checks read stay hot).
 */
export const BLOCK_CACHE_ENTRIES = 256;
/**
 * Block records decoded with their id indexes: the most recently used ones, 64 (a busy
 * block's record holds every transaction, receipt and outcome of its chunks).
 */
export const RECORD_CACHE_ENTRIES = 64;

/** A decoded record with its outcomes, receipts and transactions by base58 id. */
interface IndexedRecord {
  readonly stored: StoredBlock;
  readonly outcomes: ReadonlyMap<string, OutcomeRecord>;
  readonly receipts: ReadonlyMap<string, Receipt>;
  readonly transactions: ReadonlyMap<string, DecodedSignedTransaction>;
  readonly dropped: ReadonlyMap<string, InvalidTxErrorJson>;
  /** Created receipt id → the transaction hash or receipt id whose execution created it. */
  readonly creators: ReadonlyMap<string, string>;
}

function indexRecord(stored: StoredBlock): IndexedRecord {
  const outcomes = new Map<string, OutcomeRecord>();
  const receipts = new Map<string, Receipt>();
  const transactions = new Map<string, DecodedSignedTransaction>();
  const dropped = new Map<string, InvalidTxErrorJson>();
  const creators = new Map<string, string>();
  const at = { blockHeight: stored.height, blockHash: stored.hash };
  for (const r of stored.chunkResults) {
    for (const { stx, outcome } of r.included) {
      const hash = base58Encode(stx.hash);
      transactions.set(hash, stx);
      outcomes.set(hash, { outcome, ...at });
    }
    for (const outcome of r.receiptOutcomes) outcomes.set(base58Encode(outcome.id), { outcome, ...at });
    r.created.forEach((receipt, i) => {
      const id = base58Encode(receipt.receiptId);
      receipts.set(id, receipt);
      // Records of format 3 before receipt creators were kept have none.
      const creator = r.createdBy?.[i];
      if (creator !== undefined) creators.set(id, base58Encode(creator));
    });
    for (const { stx, error } of r.dropped) dropped.set(base58Encode(stx.hash), error);
  }
  return { stored, outcomes, receipts, transactions, dropped, creators };
}

/** How a block is rebuilt from its record, its parent and its post-state (the deterministic producer). */
export type RebuildBlock = (stored: StoredBlock, parent: BlockParent, postState: readonly StateSnapshot[]) => Block;

/**
 * The chain's history, read from the chain store: blocks by height, hash and chunk hash,
 * transactions, receipts and outcomes by id, chunk bodies and block commits. Nothing per
 * block stays in the heap beyond two bounded caches (blocks, decoded records), so memory
 * does not grow with the chain, and a block of any age costs one or two record reads and a
 * header rebuild (nearcore's ChainStore reads its columns the same way).
 */
export class BlockHistory {
  private readonly blocks = new LruCache<number, Block>(BLOCK_CACHE_ENTRIES);
  private readonly records = new LruCache<number, IndexedRecord>(RECORD_CACHE_ENTRIES);
  private headHeight: number;
  /** The head block, outside the cache's recency order (every request reads it). */
  private headBlock: Block | undefined;

  constructor(
    private readonly store: ChainStore,
    /** Where post-states are read (the store's own, or a fork's over it). */
    private readonly states: StateStore,
    readonly genesis: Block,
    private readonly rebuild: RebuildBlock,
  ) {
    this.headHeight = store.headHeight() ?? genesis.height;
  }

  /** Height of the last committed block. */
  get height(): number {
    return this.headHeight;
  }

  head(): Block {
    if (this.headBlock?.height !== this.headHeight) this.headBlock = this.block(this.headHeight)!;
    return this.headBlock;
  }

  /** The block at `height`, rebuilt from its record on a cache miss. */
  block(height: number): Block | undefined {
    if (!Number.isSafeInteger(height) || height < this.genesis.height || height > this.headHeight) return undefined;
    if (height === this.genesis.height) return this.genesis;
    return this.blocks.getOrLoad(height, (h) => {
      const stored = this.stored(h);
      if (stored === undefined) throw new ChainStoreError(`the data dir has no block at height ${h} (head ${this.headHeight})`);
      const postState = this.postStateOf(stored);
      // The header is rebuilt (and its hash checked against the record) when first read.
      return new Block(h, stored.hash, base58Decode(stored.hash), stored.timestampNs, postState, stored.totalSupply, stored.outcomeRoots, () => {
        const rebuilt = this.rebuild(stored, this.parent(h - 1), postState);
        if (rebuilt.hash !== stored.hash) {
          throw new ChainStoreError(`stored block ${h} rebuilds with hash ${rebuilt.hash}, stored as ${stored.hash}`);
        }
        return { view: rebuilt.view, innerRestHash: rebuilt.innerRestHash, outcomeLeaves: rebuilt.outcomeLeaves, signatures: rebuilt.signatures };
      });
    });
  }

  /** By base58 hash. */
  blockByHash(hash: string): Block | undefined {
    const height = this.store.heightOfBlock(hash);
    return height === undefined ? undefined : this.block(height);
  }

  /** What the block at `height` hands its child: read from the record, without rebuilding the block. */
  parent(height: number): BlockParent {
    const cached = this.blocks.get(height);
    if (cached !== undefined) return cached;
    if (height === this.genesis.height) return this.genesis;
    const s = this.stored(height);
    if (s === undefined) throw new ChainStoreError(`the data dir has no block at height ${height}`);
    return { height, hashBytes: base58Decode(s.hash), totalSupply: s.totalSupply, outcomeRoots: s.outcomeRoots, stateRoots: s.stateRoots };
  }

  /** Each shard's post-state after a stored block: its roots in the state store. */
  private postStateOf(stored: StoredBlock): StateSnapshot[] {
    return stored.stateRoots.map((root, i) => {
      const state = this.states.byRoot(root);
      if (state === undefined) throw new ChainStoreError(`the data dir lacks the state root of shard index ${i} after block ${stored.height}`);
      return state;
    });
  }

  /** The stored record of a produced block (undefined for the genesis and unknown heights). */
  stored(height: number): StoredBlock | undefined {
    return this.indexed(height)?.stored;
  }

  private indexed(height: number): IndexedRecord | undefined {
    if (!Number.isSafeInteger(height) || height <= this.genesis.height || height > this.headHeight) return undefined;
    return this.records.getOrLoad(height, (h) => {
      const stored = this.store.block(h);
      return stored === undefined ? undefined : indexRecord(stored);
    });
  }

  /** The block and shard index a chunk hash belongs to. */
  chunk(chunkHash: string): { block: Block; shardIndex: number } | undefined {
    const genesisIndex = this.genesis.view.chunks.findIndex((c) => c.chunk_hash === chunkHash);
    if (genesisIndex >= 0) return { block: this.genesis, shardIndex: genesisIndex };
    const height = this.store.heightOfChunk(chunkHash);
    const stored = height === undefined ? undefined : this.stored(height);
    if (height === undefined || stored === undefined) return undefined;
    return { block: this.block(height)!, shardIndex: stored.chunkHashes.indexOf(chunkHash) };
  }

  /** A produced chunk's transactions and outgoing receipts (undefined for genesis and unknown chunks). */
  chunkBody(chunkHash: string): ChunkBody | undefined {
    const height = this.store.heightOfChunk(chunkHash);
    const stored = height === undefined ? undefined : this.stored(height);
    const result = stored?.chunkResults[stored.chunkHashes.indexOf(chunkHash)];
    return result === undefined ? undefined : { transactions: result.included.map((t) => t.stx), receipts: [...result.outgoing] };
  }

  /** The outcome of an included transaction or an executed receipt, by base58 id. */
  outcome(id: string): OutcomeRecord | undefined {
    const height = this.store.heightOfTransaction(id) ?? this.store.heightOfReceiptOutcome(id);
    return height === undefined ? undefined : this.indexed(height)?.outcomes.get(id);
  }

  /** A receipt some chunk created, by base58 id. */
  receipt(id: string): Receipt | undefined {
    const height = this.store.heightOfReceipt(id);
    return height === undefined ? undefined : this.indexed(height)?.receipts.get(id);
  }

  /** The transaction hash or receipt id (base58) whose execution created a receipt. */
  receiptCreator(id: string): string | undefined {
    const height = this.store.heightOfReceipt(id);
    return height === undefined ? undefined : this.indexed(height)?.creators.get(id);
  }

  /** An included transaction by base58 hash. */
  includedTransaction(hash: string): DecodedSignedTransaction | undefined {
    const height = this.store.heightOfTransaction(hash);
    return height === undefined ? undefined : this.indexed(height)?.transactions.get(hash);
  }

  /** Why a block left out an accepted transaction (it no longer verified). */
  droppedReason(hash: string): InvalidTxErrorJson | undefined {
    const height = this.store.heightOfDroppedTransaction(hash);
    return height === undefined ? undefined : this.indexed(height)?.dropped.get(hash);
  }

  /** What a produced block did, as its commit subscribers got it (undefined for genesis and unknown heights). */
  commit(height: number): BlockCommit | undefined {
    const stored = this.stored(height);
    if (stored === undefined) return undefined;
    return {
      block: this.block(height)!,
      receiptOutcomes: stored.chunkResults.flatMap((r) => r.receiptOutcomes),
      stateChanges: recordedStateChanges(stored.causedChanges),
    };
  }

  /** The chunk results of the head block: receipts in flight to the next block come from them. */
  headResults(): readonly ChunkResult[] {
    return this.stored(this.headHeight)?.chunkResults ?? [];
  }

  /** Commits `block` (its record `stored`) as the new head, durably, with the merkle nodes it completes. */
  append(block: Block, stored: StoredBlock, merkleNodes: readonly MerkleNode[]): void {
    this.store.commitBlock(stored, merkleNodes);
    this.headHeight = block.height;
    this.headBlock = block;
    this.blocks.set(block.height, block);
    this.records.set(block.height, indexRecord(stored));
  }

  /** Drops every block above `height` from the store and the caches (in time proportional to the blocks dropped). */
  truncateAbove(height: number): void {
    this.store.truncateAbove(height);
    this.headHeight = height;
    this.blocks.deleteWhere((h) => h > height);
    this.records.deleteWhere((h) => h > height);
  }
}
