import type { ForkPoint } from "./fork/ForkPoint.js";
import type { Block } from "./blocks/Block.js";
import type { Finality } from "./blocks/finality.js";
import type { LightClientViews } from "./blocks/LightClientViews.js";
import type { GenesisConfig } from "./genesis/GenesisConfig.js";
import type { RuntimeParameters } from "./runtime/parameters.js";
import type { ReceiptView } from "./runtime/receipt.js";
import type { TransactionStatus } from "./runtime/transactionStatus.js";
import type { ShardLayout } from "./shards/ShardLayout.js";
import type { StateView } from "./state/StateView.js";
import type { BlockStateChanges } from "./views/BlockStateChanges.js";
import type { ChunkBodies } from "./views/ChunkBodies.js";

/**
 * What the JSON-RPC handlers need from the chain: its fixed facts, blocks by height, hash and
 * finality, transaction and receipt lookups, state views at a block, and transaction
 * submission. `Chain` implements it; the handlers see nothing else (no production, no
 * rewinds, no store), so a reader over another source (a read replica, a test double) can
 * serve them. Every method is synchronous: reads are in memory or memory-mapped (see
 * store/README.md, "Synchronous on purpose").
 */
export interface ChainReader {
  // ---- fixed facts of the chain -------------------------------------------------------------
  readonly chainId: string;
  readonly config: GenesisConfig;
  readonly protocolVersion: number;
  readonly shardLayout: ShardLayout;
  readonly genesisBlock: Block;
  readonly blockProducer: { readonly accountId: string; readonly publicKey: string };
  readonly totalSupply: bigint;
  readonly runtimeParameters: RuntimeParameters;
  readonly transactionValidityPeriod: number;
  /** Set on a fork: the upstream block the chain continues from (blocks at or below it are the upstream's). */
  readonly fork: ForkPoint | undefined;
  /** Set on a fork: the API key the upstream is asked with (never stored in the data dir). */
  readonly forkApiKey: string | undefined;
  /** Block interval; 0 = blocks on demand. */
  readonly blockTimeMs: number;

  // ---- blocks ---------------------------------------------------------------------------------
  head(): Block;
  blockByHeight(height: number): Block | undefined;
  /** By base58 hash. */
  blockByHash(hash: string): Block | undefined;
  /** optimistic = head, near-final = head - 1, final = head - 2 (clamped to genesis). */
  blockByFinality(finality: Finality): Block;
  epochStartHeight(block: Block): number;
  chunkByHash(chunkHash: string): { block: Block; shardIndex: number } | undefined;
  /** Transactions and outgoing receipts of every produced chunk. */
  readonly chunkBodies: ChunkBodies;
  /** Light-client blocks and proofs. */
  readonly lightClient: LightClientViews;
  /** A block's state changes with their causes (`block` must be one of this chain's blocks). */
  stateChangesInBlock(block: Block): BlockStateChanges;
  /** Calls `listener` after each produced block; returns an unsubscribe function. */
  onBlock(listener: (block: Block) => void): () => void;

  // ---- transactions and receipts ----------------------------------------------------------------
  transactionStatus(hash: string): TransactionStatus | undefined;
  receipt(receiptId: string): ReceiptView | undefined;
  /** The transaction a receipt descends from (throws ReceiptDepthExceededError past the walk's limit). */
  receiptOrigin(receiptId: string): { transactionHash: string; senderId: string } | undefined;
  /** Validates and pools a borsh SignedTransaction (the chain's scheduler takes it from there). */
  submitTransaction(signedTxBytes: Uint8Array): { hash: string; known: boolean };
  /** Validates without pooling; returns the hash. */
  checkTransaction(signedTxBytes: Uint8Array): string;
  /** A waiter's need for blocks on an on-demand chain; returns a release function. */
  requestBlocks(satisfied: () => boolean): () => void;

  // ---- state at a block ---------------------------------------------------------------------
  /** The state after `block` (one of this chain's blocks). */
  at(block: Block): StateView;
}
