import type { Block } from "../blocks/Block.js";
import { blockExecution } from "../blocks/blockExecution.js";
import type { BlockHistory } from "../blocks/BlockHistory.js";
import type { BlockMerkleTree } from "../blocks/BlockMerkleTree.js";
import type { BlockProducer } from "../blocks/BlockProducer.js";
import { BlockScheduler } from "../blocks/BlockScheduler.js";
import type { BlockCommit } from "../blockCommit.js";
import type { GenesisConfig } from "../genesis/GenesisConfig.js";
import { base58Encode } from "@shardkit/primitives/base58";
import { sha256 } from "../primitives/sha256.js";
import type { ApplyContext } from "../runtime/ApplyContext.js";
import { applyChunk, type ChunkResult } from "../runtime/applyChunk.js";
import { checkValidityPeriod, type CanonicalChain } from "../runtime/checkValidityPeriod.js";
import { DelayedReceiptQueue } from "../runtime/DelayedReceiptQueue.js";
import type { FunctionCallExecutor } from "../runtime/functionCallExecutor.js";
import { InvalidTransactionError } from "../runtime/InvalidTransactionError.js";
import type { InvalidTxErrorJson } from "../runtime/invalidTxError.js";
import type { RuntimeParameters } from "../runtime/parameters.js";
import type { Receipt } from "../runtime/receipt.js";
import { MIGRATION, type KeyStateChanges } from "../runtime/StateChangeCause.js";
import { StateUpdate } from "../runtime/StateUpdate.js";
import { TransactionPool } from "../runtime/TransactionPool.js";
import { validateTransaction } from "../runtime/validateTransaction.js";
import { verifyAndChargeTransaction } from "../runtime/verifyAndChargeTransaction.js";
import type { ShardLayout } from "../shards/ShardLayout.js";
import { stateChangeToWrite, type StateChange } from "../state/stateChange.js";
import type { SortedChanges } from "../store/applyChanges.js";
import { ChainStoreError, type ChainStore, type StoredBlock } from "../store/ChainStore.js";
import { ChangeSet } from "../store/changeSet.js";
import type { StateSnapshot, StateStore } from "../store/stateStore.js";
import { recordedStateChanges } from "../views/BlockStateChanges.js";
import { decodeSignedTransaction, verifyTransactionSignature, type DecodedSignedTransaction } from "../transaction/index.js";
import { at } from "../must.js";

/** What the producer works with; the chain's wiring (node.ts) makes them. */
export interface ProducerParts {
  readonly config: GenesisConfig;
  readonly layout: ShardLayout;
  readonly params: RuntimeParameters;
  /** Blocks a transaction's block hash stays valid for. */
  readonly validityPeriod: number;
  /** Smallest stake a Stake action may ask for. */
  readonly minimumStake: bigint;
  readonly functionCalls: FunctionCallExecutor;
  readonly validatorStakes: ReadonlyMap<string, bigint>;
  /** Interval of timed production; 0 = blocks on demand. */
  readonly blockTimeMs: number;
  /** Wall clock in Unix ms. */
  readonly now: () => number;
  readonly chainStore: ChainStore;
  /** Where post-states are committed (the chain store's own, or a fork's over it). */
  readonly states: StateStore;
  readonly history: BlockHistory;
  /** Builds headers, chunk headers and signatures. */
  readonly headers: BlockProducer;
  readonly merkle: BlockMerkleTree;
  /** Hands each produced block's commit on (subscribers, listeners), after it is durable. */
  readonly published: (block: Block, commit: BlockCommit) => void;
  /** Told after a rewind to `height` (commit subscribers drop what they have not delivered above it). */
  readonly rewound: (height: number) => void;
}

/**
 * Production, after nearcore's Client: the head's in-flight state (pooled transactions,
 * receipts routed to the next block, the epoch's stake proposals, staged patches), admission
 * of transactions, producing a block and committing it to the store, the scheduler that says
 * when, and the head moves of the dev-chain controls (rewind, clock lead). A failed store
 * write stops it for good: producing on would fork from the store.
 */
export class Producer {
  private readonly parts: ProducerParts;
  private pool = new TransactionPool();
  /** Transactions accepted into the pool and not yet in a block, by base58 hash. */
  private readonly pooled = new Map<string, DecodedSignedTransaction>();
  /** Receipts to execute in the next block, by shard index (the head's outgoing receipts). */
  private incoming: Receipt[][];
  /** Stake proposals of the head's epoch by account (the latest wins): returned at the next epoch boundary. */
  private stakeProposals: Map<string, bigint>;
  /** Writes staged for the next block (sandbox patches), by shard index. */
  private staged: ChangeSet[];
  /** Ms block timestamps run ahead of the wall clock (sandbox fast-forward). */
  private clockLead: number;
  /** Set when a commit failed (disk full, I/O error). */
  private commitFailure: Error | undefined;
  private closing = false;
  private readonly scheduler: BlockScheduler;
  /** Where a failed scheduled production goes (default: thrown, so the process stops). */
  private productionFailureListener: ((error: Error) => void) | undefined;
  private productionRetryListener: ((error: Error) => void) | undefined;
  private lastProductionMs = 0;

  constructor(parts: ProducerParts) {
    this.parts = parts;
    this.staged = this.emptyStage();
    this.incoming = this.routedFrom(parts.history.headResults());
    this.stakeProposals = this.storedProposals(parts.history.height);
    // A resumed chain that was fast-forwarded keeps its lead over the wall clock.
    this.clockLead = Math.max(0, Number(this.head().timestampNs / 1_000_000n) - parts.now());
    this.scheduler = new BlockScheduler(
      this,
      (error) => {
        const failure = error instanceof Error ? error : new Error(String(error));
        if (failure === this.commitFailure && this.productionFailureListener !== undefined) return; // reported by failCommits
        if (this.productionFailureListener === undefined) throw failure;
        this.productionFailureListener(failure);
      },
      (error) => this.productionRetryListener?.(error),
    );
  }

  get blockTimeMs(): number {
    return this.parts.blockTimeMs;
  }

  head(): Block {
    return this.parts.history.head();
  }

  // ---- scheduling -----------------------------------------------------------------------------

  /** Starts production (no-op when running): timed, or on demand at block time 0 (see BlockScheduler). */
  start(): void {
    this.scheduler.start();
  }

  /** Stops production; safe to call repeatedly. */
  stop(): void {
    this.scheduler.stop();
  }

  /** The chain is closing: a write that fails from now on (the store closed under it) is no production failure to report. */
  close(): void {
    this.closing = true;
    this.stop();
  }

  get running(): boolean {
    return this.scheduler.running;
  }

  /** Keeps the scheduler from producing until the returned release is called (see BlockScheduler.hold). */
  holdScheduler(): () => void {
    return this.scheduler.hold();
  }

  /** A waiter's need for blocks on an on-demand chain (see BlockScheduler.demand); returns a release function. */
  requestBlocks(satisfied: () => boolean): () => void {
    return this.scheduler.demand(satisfied);
  }

  /** Receives a scheduled production that failed, and any failed store write; without a listener the error is thrown out of the timer (and to the caller). */
  onProductionFailure(listener: (error: Error) => void): void {
    this.productionFailureListener = listener;
  }

  /** Receives a scheduled production that failed for a passing reason (a fork's upstream); it is tried again shortly. */
  onProductionRetry(listener: (error: Error) => void): void {
    this.productionRetryListener = listener;
  }

  /** True while another block would execute something: pooled transactions, receipts routed or delayed. */
  hasPendingWork(): boolean {
    if (this.pool.size > 0) return true;
    if (this.incoming.some((receipts) => receipts.length > 0)) return true;
    return this.head().postState.some((state) => DelayedReceiptQueue.load(new StateUpdate(state)).length > 0);
  }

  // ---- transactions ---------------------------------------------------------------------------

  /**
   * Validates a borsh SignedTransaction against the head and pools it for the next block.
   * A transaction already pooled or included (same hash) is answered `{known: true}` once its
   * signature checks out (the hash does not cover the signature, so a tampered copy is refused
   * as InvalidSignature). Throws TransactionDecodeError for bytes that are not a transaction
   * and InvalidTransactionError (nearcore `InvalidTxError` JSON in `.error`) for a refused one.
   */
  submitTransaction(signedTxBytes: Uint8Array): { hash: string; known: boolean } {
    const stx = decodeSignedTransaction(signedTxBytes);
    const hash = base58Encode(stx.hash);
    if (this.pooled.has(hash) || this.parts.history.includedTransaction(hash) !== undefined) {
      if (!verifyTransactionSignature(stx)) throw new InvalidTransactionError("InvalidSignature");
      return { hash, known: true };
    }
    const shard = this.validateAtHead(stx);
    this.pool.add(stx, hash, shard);
    this.pooled.set(hash, stx);
    this.scheduler.transactionArrived();
    return { hash, known: false };
  }

  /** Validates a transaction as `submitTransaction` would, without pooling it. Returns its hash. */
  checkTransaction(signedTxBytes: Uint8Array): string {
    const stx = decodeSignedTransaction(signedTxBytes);
    this.validateAtHead(stx);
    return base58Encode(stx.hash);
  }

  /** A transaction accepted into the pool and not yet in a block. */
  pooledTransaction(hash: string): DecodedSignedTransaction | undefined {
    return this.pooled.get(hash);
  }

  /** Transactions waiting in the pool. */
  get poolSize(): number {
    return this.pool.size;
  }

  /** Wall-clock ms the last produced block took, from the pool to the durable commit. */
  get lastBlockProductionMs(): number {
    return this.lastProductionMs;
  }

  /**
   * Checks, in nearcore's order (rpc_handler.rs `process_tx_internal`): the validity period
   * against the head; actions, size, signature; then against the head state of the signer's
   * shard: cost, signer, key, nonce, balance, allowance, storage, function-call key rules.
   * As in nearcore the nonce is checked against state only, so a client may send a key's
   * transactions out of order within a block; the pool orders them by nonce and inclusion
   * drops a repeated nonce. NonceTooLarge is skipped here, as nearcore skips it (it has no
   * block height yet): inclusion drops such a transaction. Returns the signer's shard index.
   */
  private validateAtHead(stx: DecodedSignedTransaction): number {
    const { params, config, layout } = this.parts;
    const tx = stx.transaction;
    const head = this.head();
    const refuse = (error: InvalidTxErrorJson | undefined): void => {
      if (error !== undefined) throw new InvalidTransactionError(error);
    };
    refuse(checkValidityPeriod(this.canonical, head.height, base58Encode(tx.blockHash), this.parts.validityPeriod));
    refuse(validateTransaction(params, stx, config.protocolVersion));
    const shard = layout.shardIndexOf(tx.signerId);
    const verified = verifyAndChargeTransaction(params, new StateUpdate(at(head.postState, shard)), tx, config.gasPrice, { blockHeight: undefined });
    if (!verified.ok) refuse(verified.error);
    return shard;
  }

  /** The chain as the validity-period check sees it. */
  private readonly canonical: CanonicalChain = {
    heightOf: (hash) => this.parts.chainStore.heightOfBlock(hash),
    hashAt: (height) => {
      const hash = this.parts.chainStore.blockHashAt(height);
      return hash === undefined ? undefined : base58Encode(hash);
    },
  };

  // ---- production -----------------------------------------------------------------------------

  /** Stages writes for the next produced block (last write per key wins). */
  stage(changes: readonly StateChange[]): void {
    for (const change of changes) {
      const { key, value } = stateChangeToWrite(change);
      const shard = this.parts.layout.shardIndexOf(change.accountId);
      if (value === null) at(this.staged, shard).delete(key);
      else at(this.staged, shard).set(key, value);
    }
  }

  /**
   * Produces the next block now. Every shard gets a chunk: staged changes are written first,
   * then the chunk applies the pooled transactions of signers on the shard, its local,
   * delayed and incoming receipts (see runtime/applyChunk.ts). Receipts the chunks create
   * are routed to their receivers' shards for the next block. The block is durable in the
   * store before it is published. Returns the new head.
   */
  produceBlock(): Block {
    if (this.commitFailure !== undefined) throw this.commitFailure;
    const started = performance.now();
    const { config, layout, headers, chainStore } = this.parts;
    const prev = this.head();
    const height = prev.height + 1;
    const newEpoch = headers.epochIndexOf(height) !== headers.epochIndexOf(prev.height);
    const timestampNs = this.nextTimestamp(prev);
    const ctx: ApplyContext = {
      params: this.parts.params,
      chainId: config.chainId,
      blockHeight: height,
      blockTimestampNs: timestampNs,
      epochHeight: headers.epochIndexOf(height) + 1,
      randomSeed: blockRandomSeed(prev.hashBytes, height),
      validatorStakes: this.parts.validatorStakes,
      gasPrice: config.gasPrice,
      protocolVersion: config.protocolVersion,
      minimumStake: this.parts.minimumStake,
      shardLayout: layout,
      functionCalls: this.parts.functionCalls,
    };
    const transactions = this.pool.drain(layout.numShards);
    const incoming = this.incoming;
    const staged = this.staged;
    const stakeReturns = newEpoch ? [...this.stakeProposals] : [];
    const gasLimit = BigInt(config.gasLimit);
    const checkTransaction = (stx: DecodedSignedTransaction) =>
      checkValidityPeriod(this.canonical, prev.height, base58Encode(stx.transaction.blockHash), this.parts.validityPeriod);

    const results: ChunkResult[] = [];
    const stateChanges: SortedChanges[] = [];
    const causedChanges: KeyStateChanges[][] = [];
    const stateStore = this.parts.states;
    let postState: StateSnapshot[];
    try {
      postState = prev.postState.map((state, i) => {
        const su = new StateUpdate(state);
        at(staged, i).forEach((key, value) => (value === null ? su.remove(key) : su.set(key, value)));
        // nearcore's sandbox state patches are committed as a migration.
        su.commit(MIGRATION);
        const result = applyChunk({
          ctx,
          su,
          gasLimit,
          transactions: at(transactions, i),
          incoming: at(incoming, i),
          checkTransaction,
          stakeReturns: new Map(stakeReturns.filter(([id]) => layout.shardIndexOf(id) === i)),
        });
        results.push(result);
        const changes = su.toChangeSet().toSorted();
        stateChanges.push(changes);
        causedChanges.push(su.stateChanges());
        return changes.keys.length === 0 ? state : stateStore.commit(state, changes);
      });
    } catch (e) {
      // A runtime bug: leave the chain as it was (pool, in-flight receipts, staged writes).
      transactions.forEach((txs, i) => txs.forEach((stx) => this.pool.add(stx, base58Encode(stx.hash), i)));
      throw e;
    }
    this.staged = this.emptyStage();
    const block = headers.next(prev, timestampNs, postState, blockExecution(results, prev.totalSupply));
    const epochProposals = new Map(newEpoch ? [] : this.stakeProposals);
    for (const r of results) for (const p of r.proposals) epochProposals.set(p.accountId, p.stake); // the latest proposal wins
    const record: StoredBlock = {
      height: block.height,
      hash: block.hash,
      timestampNs,
      stateChanges,
      causedChanges,
      chunkResults: results,
      stateRoots: block.stateRoots,
      totalSupply: block.totalSupply,
      outcomeRoots: block.outcomeRoots,
      chunkHashes: block.view.chunks.map((c) => c.chunk_hash),
      epochProposals: [...epochProposals],
      signatures: block.signatures!,
    };
    // Durable before anyone sees it: a crash before this line loses the block as a whole.
    try {
      this.parts.history.append(block, record, this.parts.merkle.completedBy(block.height - config.genesisHeight, block.hashBytes));
    } catch (e) {
      // The header producer already built this block: producing on would diverge from the store.
      this.failCommits(e);
    }
    this.incoming = this.routedFrom(results);
    this.stakeProposals = epochProposals;
    for (const r of results) for (const { stx } of [...r.included, ...r.dropped]) this.pooled.delete(base58Encode(stx.hash));
    this.lastProductionMs = performance.now() - started;
    const busy = staged.some((changes) => changes.size > 0) || results.some((r) => r.included.length + r.dropped.length + r.receiptOutcomes.length > 0);
    this.scheduler.blockProduced(busy);
    this.parts.published(block, {
      block,
      receiptOutcomes: results.flatMap((r) => r.receiptOutcomes),
      stateChanges: recordedStateChanges(causedChanges),
    });
    return block;
  }

  /** Wall-clock ms in ns, strictly after the previous block (ms-aligned numbers print exactly). */
  private nextTimestamp(prev: Block): bigint {
    const now = BigInt(Math.floor(this.parts.now() + this.clockLead)) * 1_000_000n;
    return now > prev.timestampNs ? now : (prev.timestampNs / 1_000_000n + 1n) * 1_000_000n;
  }

  /** Receipts the chunks sent on, by the shard index of their receivers (the next block's incoming). */
  private routedFrom(results: readonly ChunkResult[]): Receipt[][] {
    const { layout } = this.parts;
    const incoming: Receipt[][] = layout.shardIds.map(() => []);
    for (const r of results) {
      for (const receipt of r.outgoing) {
        // A global contract distribution goes to its target shard, not its receiver's (`system`).
        const b = receipt.body;
        const index = b.type === "GlobalContractDistribution" ? layout.indexOfShardId(b.targetShard)! : layout.shardIndexOf(receipt.receiverId);
        at(incoming, index).push(receipt);
      }
    }
    return incoming;
  }

  private storedProposals(height: number): Map<string, bigint> {
    return new Map(this.parts.history.stored(height)?.epochProposals ?? []);
  }

  private emptyStage(): ChangeSet[] {
    return this.parts.layout.shardIds.map(() => new ChangeSet());
  }

  // ---- dev-chain head moves -------------------------------------------------------------------

  /** Runs `body` (synchronous block production) with one store flush at its end instead of one per block. */
  async withOneFlush<T>(body: () => T): Promise<T> {
    try {
      return await this.parts.chainStore.withOneFlush(body);
    } catch (e) {
      // The closing flush failed (disk full, read-only): stop as a failed commit does.
      if (e instanceof ChainStoreError && this.commitFailure === undefined) this.failCommits(e);
      throw e;
    }
  }

  /** Ms by which block timestamps run ahead of the wall clock (fast-forwarded time). */
  get clockLeadMs(): number {
    return this.clockLead;
  }

  /** Sets how far block timestamps run ahead of the wall clock (>= 0; timestamps never go back). */
  setClockLeadMs(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`clock lead must be >= 0 ms, got ${ms}`);
    this.clockLead = ms;
  }

  /**
   * Forgets every block above `height` (sandbox revert). The chain store drops them with
   * their indexes in one atomic write (a crash leaves either chain), in time proportional to
   * the blocks undone: the state at `height` is its roots in the persistent trie, and what
   * was in flight then (receipts routed to the next block, the epoch's stake proposals) is in
   * its record. Pooled transactions and staged writes are dropped. Returns the new head.
   */
  rewindTo(height: number): Block {
    if (this.commitFailure !== undefined) throw this.commitFailure;
    const { history } = this.parts;
    const genesisHeight = this.parts.config.genesisHeight;
    if (!Number.isSafeInteger(height) || height < genesisHeight || height > history.height) {
      throw new RangeError(`cannot rewind to height ${height}: the chain holds ${genesisHeight} to ${history.height}`);
    }
    try {
      history.truncateAbove(height);
    } catch (e) {
      this.failCommits(e);
    }
    this.parts.rewound(height);
    this.pool = new TransactionPool();
    this.pooled.clear();
    this.staged = this.emptyStage();
    this.incoming = this.routedFrom(history.headResults());
    this.stakeProposals = this.storedProposals(height);
    return this.head();
  }

  /**
   * A failed store write: production stops rather than diverge from the store, and the failure
   * listener hears of it whichever write path failed (timer, fast-forward, revert, patch).
   */
  private failCommits(e: unknown): never {
    this.stop();
    const failure = e instanceof Error ? e : new Error(String(e));
    this.commitFailure = failure;
    if (!this.closing) this.productionFailureListener?.(failure);
    throw failure;
  }
}

/** The random seed contracts see in a block: sha256(prev hash ‖ u64 height) (nearcore derives it from the block's VRF value). */
function blockRandomSeed(prevHash: Uint8Array, height: number): Uint8Array {
  const buf = Buffer.alloc(prevHash.length + 8);
  buf.set(prevHash, 0);
  buf.writeBigUInt64LE(BigInt(height), prevHash.length);
  return sha256(buf);
}
