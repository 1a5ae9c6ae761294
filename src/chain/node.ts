import { Block } from "./blocks/Block.js";
import { BlockHistory } from "./blocks/BlockHistory.js";
import { BlockMerkleTree } from "./blocks/BlockMerkleTree.js";
import { BlockProducer } from "./blocks/BlockProducer.js";
import { StoredMerkleNodes } from "./blocks/StoredMerkleNodes.js";
import { BlockScheduler } from "./blocks/BlockScheduler.js";
import { CommitSubscribers, type CommitListener, type SubscriberFailureReport } from "./blocks/CommitSubscribers.js";
import { LightClientViews } from "./blocks/LightClientViews.js";
import { finalityHeight, type Finality } from "./blocks/finality.js";
import { defaultGenesisConfig, type GenesisConfig } from "./genesis/GenesisConfig.js";
import type { BlockCommit } from "./blockCommit.js";
import type { ChainReader } from "./ChainReader.js";
import type { GenesisState } from "./genesis/GenesisStateBuilder.js";
import { buildDevGenesis, type DevAccount } from "./genesis/devGenesis.js";
import { devKeyPair } from "./genesis/devKey.js";
import { loadGenesisFile, type GenesisLoadProgress } from "./genesis/loadGenesisFile.js";
import type { AccessKey } from "./primitives/accessKey.js";
import { formatCryptoHash } from "./primitives/cryptoHash.js";
import { ShardLayout } from "./shards/ShardLayout.js";
import {
  codeLengthIn,
  storageUsageIn,
  viewAccessKeyIn,
  viewAccessKeysIn,
  viewAccountIn,
  viewCodeIn,
  type AccountView,
} from "./state/accountViews.js";
import { stateChangeToWrite, type StateChange } from "./state/stateChange.js";
import { viewStateIn, type ViewStateOptions, type ViewStateResult } from "./state/viewStateIn.js";
import { ChangeSet } from "./store/changeSet.js";
import type { SortedChanges } from "./store/applyChanges.js";
import { ChainStoreError, type ChainStore, type StoredBlock, type StoredGenesis } from "./store/ChainStore.js";
import { LmdbChainStore } from "./store/LmdbChainStore.js";
import { MemoryChainStore } from "./store/MemoryChainStore.js";
import type { StateSnapshot, StateStore } from "./store/stateStore.js";
import { base58Encode } from "./primitives/base58.js";
import { decodeSignedTransaction, verifyTransactionSignature, type DecodedSignedTransaction } from "./transaction/index.js";
import type { BlockExecution, ChunkExecution } from "./blocks/BlockProducer.js";
import { applyChunk, type ChunkResult } from "./runtime/applyChunk.js";
import type { ApplyContext } from "./runtime/ApplyContext.js";
import { checkValidityPeriod, type CanonicalChain } from "./runtime/checkValidityPeriod.js";
import { outcomeHash } from "./runtime/executionOutcome.js";
import type { FunctionCallExecutor } from "./runtime/functionCallExecutor.js";
import { InvalidTransactionError } from "./runtime/InvalidTransactionError.js";
import type { InvalidTxErrorJson } from "./runtime/invalidTxError.js";
import { NEARCORE_RUNTIME_PARAMETERS, type RuntimeParameters } from "./runtime/parameters.js";
import { toReceiptView, type Receipt, type ReceiptView } from "./runtime/receipt.js";
import type { ExecutionOutcome } from "./runtime/executionOutcome.js";
import type { ChunkBodies } from "./views/ChunkBodies.js";
import { DelayedReceiptQueue } from "./runtime/DelayedReceiptQueue.js";
import { StateUpdate } from "./runtime/StateUpdate.js";
import { MIGRATION, type KeyStateChanges } from "./runtime/StateChangeCause.js";
import { genesisStateChanges, recordedStateChanges, type BlockStateChanges } from "./views/BlockStateChanges.js";
import { TransactionPool } from "./runtime/TransactionPool.js";
import { includedTransactionStatus, type ExecutionLookup, type TransactionStatus } from "./runtime/transactionStatus.js";
import { validateTransaction } from "./runtime/validateTransaction.js";
import { verifyAndChargeTransaction } from "./runtime/verifyAndChargeTransaction.js";
import { readAccount } from "./state/accountViews.js";
import type { CallFunctionOutcome } from "./vm/CallFunctionOutcome.js";
import { ContractCache } from "./vm/ContractCache.js";
import { wasmLimitsOf } from "./vm/wasmLimitsOf.js";
import { MemoryPool } from "./vm/MemoryPool.js";
import { UnknownAccountError } from "./vm/UnknownAccountError.js";
import { viewFunctionCall } from "./vm/viewFunctionCall.js";
import type { ViewLimits } from "./vm/ViewLimits.js";
import { createWasmExecutor } from "./vm/wasmExecutor.js";
import { sha256 } from "./primitives/sha256.js";

export { Block } from "./blocks/Block.js";
export type { Finality } from "./blocks/finality.js";
export type { BlockView, BlockHeaderView, ChunkHeaderView } from "./blocks/blockView.js";
export type { DevAccount } from "./genesis/devGenesis.js";
export type { GenesisLoadProgress } from "./genesis/loadGenesisFile.js";
export type { AccessKey, AccessKeyPermission } from "./primitives/accessKey.js";
export type { AccountView } from "./state/accountViews.js";
export type { StateChange } from "./state/stateChange.js";
export type { BlockCommit } from "./blockCommit.js";
export type { ChainReader } from "./ChainReader.js";
export type { ViewStateOptions, ViewStateResult } from "./state/viewStateIn.js";
export { InvalidTransactionError } from "./runtime/InvalidTransactionError.js";
export { TransactionDecodeError } from "./transaction/index.js";
export type { InvalidTxErrorJson, InvalidAccessKeyErrorJson, ActionsValidationErrorJson } from "./runtime/invalidTxError.js";
export type { ActionErrorJson, ActionErrorKindJson, TxExecutionErrorJson } from "./runtime/actionError.js";
export type { ExecutionOutcomeView, ExecutionOutcomeWithIdView, ExecutionStatusView } from "./runtime/executionOutcome.js";
export type { ReceiptView } from "./runtime/receipt.js";
export type {
  FinalExecutionOutcomeView,
  FinalExecutionStatus,
  TransactionStatus,
  TxExecutionStatus,
} from "./runtime/transactionStatus.js";
export type { FunctionCallExecutor } from "./runtime/functionCallExecutor.js";
export type { CallFunctionOutcome } from "./vm/CallFunctionOutcome.js";
export { UnknownAccountError } from "./vm/UnknownAccountError.js";

export interface ChainOptions {
  /** Shard count for the default layout (default 4; see defaultBoundaryAccounts). */
  readonly shards?: number;
  /** Explicit boundary accounts (shards = length + 1); wins over `shards` and the file. */
  readonly boundaryAccounts?: readonly string[];
  /** Block interval for start(); 0 = blocks only on produceBlock() (default 1000). */
  readonly blockTimeMs?: number;
  /** nearcore-format genesis JSON; without it the dev genesis is used. */
  readonly genesisFile?: string;
  /** How far the load of `genesisFile` has come (see GenesisLoadProgress for when it is called). */
  readonly onGenesisProgress?: (progress: GenesisLoadProgress) => void;
  /** Overrides the default / file chain id. */
  readonly chainId?: string;
  /**
   * Where blocks and their effects are kept (default: in memory, lost with the process).
   * A store that already holds a chain resumes it; genesis options must then agree with it.
   */
  readonly chainStore?: ChainStore;
  /** Opens an on-disk store (LMDB) in this directory, created when missing (ignored with `chainStore`). */
  readonly dataDir?: string;
  /** Clock in Unix ms (tests). */
  readonly now?: () => number;
  /** Genesis time of the dev genesis in Unix ms (default: now); a fixed one makes the genesis hash reproducible. */
  readonly genesisTimeMs?: number;
  /** Blocks a transaction's block hash stays valid for (nearcore `transaction_validity_period`, default 86,400). */
  readonly transactionValidityPeriod?: number;
  /** Epoch length in blocks; overrides the genesis value (unstaked tokens return at epoch boundaries). */
  readonly epochLength?: number;
  /** Gas limit of every chunk; overrides the genesis value (default 10^15). */
  readonly gasLimit?: number;
  /** Smallest stake a Stake action may ask for (default 0: any positive stake). */
  readonly minimumStake?: bigint;
  /** Runs FunctionCall actions (default: the wasm contract VM, vm/wasmExecutor.ts). */
  readonly functionCalls?: FunctionCallExecutor;
}

/** nearcore's default `transaction_validity_period`, in blocks. */
export const DEFAULT_TRANSACTION_VALIDITY_PERIOD = 86_400;

const DEV_AUTHOR = "test.near";

/**
 * The simulated sharded chain: per-shard authenticated state, one chunk per shard per block,
 * doomslug-like finality, and every block kept (archival; serving layers apply retention).
 * Reads take a block and see its post-state.
 */
export class Chain implements ChainReader {
  readonly chainId: string;
  readonly shardLayout: ShardLayout;
  readonly config: GenesisConfig;
  readonly blockTimeMs: number;
  readonly genesisBlock: Block;
  /** Dev accounts with their keys (empty when loaded from a genesis file). */
  readonly devAccounts: readonly DevAccount[];
  /** Sum of all balances at genesis. */
  readonly totalSupply: bigint;
  /** Head height when the chain was reopened from its store; undefined for a new chain. */
  readonly resumedAtHeight: number | undefined;
  /** The single block producer (author of every block) and the key that signs blocks. */
  readonly blockProducer: { readonly accountId: string; readonly publicKey: string };

  private readonly store: StateStore;
  /** Keeps every block (the seam to disk); a block is reported only after its commit. */
  private readonly chainStore: ChainStore;
  /** Set when a commit failed (disk full, I/O error): the chain stops producing rather than fork from its store. */
  private commitFailure: Error | undefined;
  private readonly producer: BlockProducer;
  /** The block merkle tree over every block hash, kept in the chain store. */
  private readonly merkle: BlockMerkleTree;
  /** Blocks, chunks, transactions, receipts and outcomes, read from the chain store through bounded caches. */
  private readonly history: BlockHistory;
  /** Light-client proofs and blocks (light_client_proof, next_light_client_block, block proofs). */
  readonly lightClient: LightClientViews;
  private readonly now: () => number;
  private pending: ChangeSet[];
  private readonly listeners = new Set<(block: Block) => void>();
  /** Block-commit subscribers, each fed on later turns so none can hold up production. */
  private readonly subscribers = new CommitSubscribers((name, height, error) => this.subscriberFailure(name, height, error));
  private subscriberFailureReport: SubscriberFailureReport | undefined;
  /** Decides when blocks are produced (timed, or on demand at block time 0). */
  private readonly scheduler: BlockScheduler;
  /** Where a failed scheduled production goes (default: thrown, so the process stops). */
  private productionFailureListener: ((error: Error) => void) | undefined;
  /** Ms block timestamps run ahead of the wall clock (sandbox fast-forward). */
  private clockLead = 0;

  /** The runtime parameter table (nearcore's, see runtime/parameters.ts). */
  readonly runtimeParameters: RuntimeParameters = NEARCORE_RUNTIME_PARAMETERS;
  /** Blocks a transaction's block hash stays valid for. */
  readonly transactionValidityPeriod: number;
  private readonly minimumStake: bigint;
  private readonly functionCalls: FunctionCallExecutor;
  /** Prepared contracts by code hash, shared by the executor and view calls. */
  private readonly contracts: ContractCache;
  /** Guest memories reused across calls (see vm/MemoryPool.ts). */
  private readonly memories: MemoryPool;
  /** Stakes of the validators contracts see (the block producer's genesis stake). */
  private readonly validatorStakes: ReadonlyMap<string, bigint>;
  private pool = new TransactionPool();
  /** Transactions accepted into the pool and not yet in a block, by base58 hash. */
  private readonly pooled = new Map<string, DecodedSignedTransaction>();
  /** Transactions and outgoing receipts of every produced chunk (the `chunk` method). */
  readonly chunkBodies: ChunkBodies = { get: (chunkHash) => this.history.chunkBody(chunkHash) };
  /** Receipts to execute in the next block, by shard index (the head's outgoing receipts). */
  private incoming: Receipt[][];
  /** Stake proposals of the head's epoch by account (the latest wins): returned at the next epoch boundary. */
  private stakeProposals = new Map<string, bigint>();

  private constructor(init: {
    config: GenesisConfig;
    layout: ShardLayout;
    state: GenesisState;
    devAccounts: DevAccount[];
    author: string;
    chainStore: ChainStore;
    devGenesis: boolean;
    /** Stored genesis roots: read from the state store instead of building `state` when it holds them. */
    genesisRoots?: readonly Uint8Array[] | undefined;
    blockTimeMs: number;
    now: () => number;
    validityPeriod: number;
    minimumStake: bigint;
    functionCalls: FunctionCallExecutor | undefined;
  }) {
    this.config = init.config;
    this.transactionValidityPeriod = init.validityPeriod;
    this.minimumStake = init.minimumStake;
    this.contracts = new ContractCache(wasmLimitsOf(this.runtimeParameters));
    const w = this.runtimeParameters.wasm;
    this.memories = new MemoryPool(w.initialMemoryPages, w.maxMemoryPages);
    this.functionCalls = init.functionCalls ?? createWasmExecutor({ cache: this.contracts, memories: this.memories });
    this.incoming = init.layout.shardIds.map(() => []);
    this.chainId = init.config.chainId;
    this.shardLayout = init.layout;
    this.devAccounts = init.devAccounts;
    this.store = init.chainStore.stateStore();
    this.chainStore = init.chainStore;
    this.blockTimeMs = init.blockTimeMs;
    this.scheduler = new BlockScheduler(this, (error) => {
      const failure = error instanceof Error ? error : new Error(String(error));
      if (this.productionFailureListener === undefined) throw failure;
      this.productionFailureListener(failure);
    });
    this.now = init.now;
    this.totalSupply = init.state.totalSupply;
    this.pending = init.layout.shardIds.map(() => new ChangeSet());
    this.blockProducer = { accountId: init.author, publicKey: devKeyPair(init.author).publicKeyString };
    const genesisState = this.genesisState(init.state, init.genesisRoots);
    const producerAccount = readAccount(genesisState[init.layout.shardIndexOf(init.author)]!, init.author);
    this.validatorStakes = new Map([[init.author, producerAccount?.locked ?? 0n]]);
    const g = init.config.genesisHeight;
    // Blocks in the chain, genesis included (0 while the genesis itself is built).
    const treeSize = () => {
      const history = this.history as BlockHistory | undefined;
      return history === undefined ? 0 : history.height - g + 1;
    };
    this.merkle = new BlockMerkleTree(new StoredMerkleNodes(this.chainStore, g, treeSize));
    this.producer = this.createProducer();
    this.genesisBlock = this.producer.genesis(init.config.genesisTimeNs, genesisState);
    this.lightClient = new LightClientViews({
      genesisHeight: g,
      layout: init.layout,
      producer: this.producer,
      head: () => this.head(),
      finalHeight: () => this.blockByFinality("final").height,
      blockByHeight: (height) => this.blockByHeight(height),
      blockByHash: (hash) => this.blockByHash(hash),
      outcome: (id) => this.history.outcome(id),
    });
    const stored = this.chainStore.genesis();
    if (stored === undefined) {
      this.chainStore.initGenesis({
        config: init.config,
        layout: {
          boundaryAccounts: init.layout.boundaryAccounts,
          routing: init.layout.routing,
          shardIds: init.layout.shardIds,
        },
        author: init.author,
        devGenesis: init.devGenesis,
        shards: init.state.shards,
        stateRoots: genesisState.map((s) => s.rootHash),
        totalSupply: init.state.totalSupply,
        genesisHash: this.genesisBlock.hash,
      });
    } else if (stored.genesisHash !== this.genesisBlock.hash) {
      throw new ChainStoreError(`stored genesis ${stored.genesisHash} rebuilds as ${this.genesisBlock.hash}: the data dir does not match this shardkit`);
    }
    // The head is read from the store, not replayed: its record names everything in flight.
    this.history = new BlockHistory(this.chainStore, this.genesisBlock, (record, parent, postState) =>
      this.producer.next(parent, record.timestampNs, postState, this.executionOf(record.chunkResults, parent.totalSupply), record.signatures),
    );
    this.incoming = this.routedFrom(this.history.headResults());
    this.stakeProposals = new Map(this.history.stored(this.history.height)?.epochProposals ?? []);
    // A resumed chain that was fast-forwarded keeps its lead over the wall clock.
    this.clockLead = Math.max(0, Number(this.head().timestampNs / 1_000_000n) - this.now());
    this.resumedAtHeight = stored === undefined ? undefined : this.head().height;
  }

  /** Genesis roots the state store still holds (a reopened on-disk chain), else the tries built from the entries. */
  private genesisState(state: GenesisState, roots: readonly Uint8Array[] | undefined): StateSnapshot[] {
    const kept = roots?.map((r) => this.store.byRoot(r));
    if (kept !== undefined && kept.every((s) => s !== undefined)) return kept as StateSnapshot[];
    if (roots !== undefined && state.shards.every((s) => s.keys.length === 0)) {
      throw new ChainStoreError("the stored genesis state roots are missing from the data dir");
    }
    return state.shards.map((s) => this.store.build(s.keys, s.values));
  }

  /** Builds the genesis (from a file, streamed, or the dev genesis) and returns the chain. */
  static async open(opts: ChainOptions = {}): Promise<Chain> {
    const chainStore = opts.chainStore ?? (opts.dataDir === undefined ? new MemoryChainStore() : LmdbChainStore.open(opts.dataDir));
    try {
      return await Chain.openOn(chainStore, opts);
    } catch (e) {
      // A store we opened is closed again (its writer lock released); a given one stays the caller's.
      if (opts.chainStore === undefined) await chainStore.close();
      throw e;
    }
  }

  private static async openOn(chainStore: ChainStore, opts: ChainOptions): Promise<Chain> {
    const now = opts.now ?? Date.now;
    const blockTimeMs = opts.blockTimeMs ?? 1000;
    if (!Number.isFinite(blockTimeMs) || blockTimeMs < 0) throw new RangeError(`blockTimeMs must be >= 0, got ${blockTimeMs}`);
    const pickLayout = (fileLayout: ShardLayout | undefined): ShardLayout => {
      if (opts.boundaryAccounts !== undefined) {
        if (opts.shards !== undefined && opts.shards !== opts.boundaryAccounts.length + 1) {
          throw new RangeError(`${opts.boundaryAccounts.length} boundary accounts make ${opts.boundaryAccounts.length + 1} shards, not ${opts.shards}`);
        }
        return ShardLayout.fromBoundaries(opts.boundaryAccounts);
      }
      if (opts.shards !== undefined) return ShardLayout.withShards(opts.shards);
      return fileLayout ?? ShardLayout.withShards(4);
    };
    const store = chainStore.stateStore();
    const validityPeriod = opts.transactionValidityPeriod ?? DEFAULT_TRANSACTION_VALIDITY_PERIOD;
    if (!Number.isSafeInteger(validityPeriod) || validityPeriod < 0) {
      throw new RangeError(`transactionValidityPeriod must be an integer >= 0, got ${validityPeriod}`);
    }
    for (const [name, v] of [["epochLength", opts.epochLength], ["gasLimit", opts.gasLimit]] as const) {
      if (v !== undefined && (!Number.isSafeInteger(v) || v < 1)) throw new RangeError(`${name} must be an integer >= 1, got ${v}`);
    }
    const override = (config: GenesisConfig): GenesisConfig => ({
      ...config,
      ...(opts.chainId === undefined ? {} : { chainId: opts.chainId }),
      ...(opts.epochLength === undefined ? {} : { epochLength: opts.epochLength }),
      ...(opts.gasLimit === undefined ? {} : { gasLimit: opts.gasLimit }),
    });
    const runtime = {
      validityPeriod,
      minimumStake: opts.minimumStake ?? 0n,
      functionCalls: opts.functionCalls,
    };
    const resumed = chainStore.genesis();
    if (resumed !== undefined) {
      try {
        return Chain.resume(resumed, opts, { ...runtime, chainStore, blockTimeMs, now });
      } catch (e) {
        if (opts.chainStore !== undefined) await chainStore.close();
        throw e;
      }
    }
    if (opts.genesisFile !== undefined) {
      // An on-disk state store gets the tries straight from the file (bounded memory); their roots come back.
      const loaded = await loadGenesisFile(opts.genesisFile, pickLayout, now(), store, opts.onGenesisProgress ? { onProgress: opts.onGenesisProgress } : {});
      const config = override(loaded.config);
      return new Chain({
        ...runtime,
        config,
        layout: loaded.layout,
        state: loaded.state,
        devAccounts: [],
        author: config.blockProducer ?? loaded.firstAccountId ?? DEV_AUTHOR,
        chainStore,
        devGenesis: false,
        genesisRoots: loaded.roots,
        blockTimeMs,
        now,
      });
    }
    const layout = pickLayout(undefined);
    const { state, devAccounts } = buildDevGenesis(layout);
    return new Chain({
      ...runtime,
      config: override(defaultGenesisConfig(opts.genesisTimeMs ?? now(), opts.chainId)),
      layout,
      state,
      devAccounts,
      author: DEV_AUTHOR,
      chainStore,
      devGenesis: true,
      blockTimeMs,
      now,
    });
  }

  /** Reopens a stored chain: the genesis from its record; the head and every block are read from the store. */
  private static resume(
    stored: StoredGenesis,
    opts: ChainOptions,
    rest: {
      validityPeriod: number;
      minimumStake: bigint;
      functionCalls: FunctionCallExecutor | undefined;
      chainStore: ChainStore;
      blockTimeMs: number;
      now: () => number;
    },
  ): Chain {
    const layout =
      stored.layout.routing === "hash"
        ? ShardLayout.hashed(stored.layout.shardIds.length)
        : ShardLayout.fromBoundaries(stored.layout.boundaryAccounts, stored.layout.shardIds);
    const differs = (what: string, asked: unknown, kept: unknown): never => {
      throw new ChainStoreError(`the data dir holds a chain with ${what} ${String(kept)}, not ${String(asked)} (use another --data-dir or --ephemeral)`);
    };
    if (opts.genesisFile !== undefined) {
      throw new ChainStoreError(
        `the data dir already holds a chain; genesis file ${opts.genesisFile} only starts a new one (use another --data-dir or --ephemeral)`,
      );
    }
    if (opts.shards !== undefined && opts.shards !== layout.numShards) differs("shard count", opts.shards, layout.numShards);
    if (opts.boundaryAccounts !== undefined && opts.boundaryAccounts.join(",") !== layout.boundaryAccounts.join(",")) {
      differs("boundary accounts", opts.boundaryAccounts.join(","), layout.boundaryAccounts.join(","));
    }
    if (opts.chainId !== undefined && opts.chainId !== stored.config.chainId) differs("chain id", opts.chainId, stored.config.chainId);
    if (opts.epochLength !== undefined && opts.epochLength !== stored.config.epochLength) differs("epoch length", opts.epochLength, stored.config.epochLength);
    if (opts.gasLimit !== undefined && opts.gasLimit !== stored.config.gasLimit) differs("gas limit", opts.gasLimit, stored.config.gasLimit);
    const state: GenesisState = {
      shards: stored.shards.map((s) => ({ keys: [...s.keys], values: [...s.values] })),
      totalSupply: stored.totalSupply,
      accountCount: 0,
      recordCount: 0,
    };
    return new Chain({
      ...rest,
      config: stored.config,
      layout,
      state,
      devAccounts: stored.devGenesis ? buildDevGenesis(layout).devAccounts : [],
      author: stored.author,
      devGenesis: stored.devGenesis,
      genesisRoots: stored.stateRoots,
    });
  }

  // ---- sandbox hooks (see src/chain/sandbox/) -----------------------------------------------

  /** Runs `body` (synchronous block production) with one store flush at its end instead of one per block. */
  withOneFlush<T>(body: () => T): T {
    try {
      return this.chainStore.withOneFlush(body);
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
   * its record. Pooled transactions and staged writes are dropped. Commit subscribers are
   * not called for the dropped blocks: they rebuild from `blockCommit`. Returns the new head.
   */
  rewindTo(height: number): Block {
    if (this.commitFailure !== undefined) throw this.commitFailure;
    const genesisHeight = this.genesisBlock.height;
    if (!Number.isSafeInteger(height) || height < genesisHeight || height > this.head().height) {
      throw new RangeError(`cannot rewind to height ${height}: the chain holds ${genesisHeight} to ${this.head().height}`);
    }
    try {
      this.history.truncateAbove(height);
    } catch (e) {
      this.failCommits(e);
    }
    this.subscribers.dropAbove(height);
    this.pool = new TransactionPool();
    this.pooled.clear();
    this.pending = this.shardLayout.shardIds.map(() => new ChangeSet());
    this.incoming = this.routedFrom(this.history.headResults());
    this.stakeProposals = new Map(this.history.stored(height)?.epochProposals ?? []);
    return this.head();
  }

  /** The block producer; the block merkle tree it reads is the chain store's. */
  private createProducer(): BlockProducer {
    return new BlockProducer(
      {
        author: this.blockProducer.accountId,
        key: devKeyPair(this.blockProducer.accountId),
        layout: this.shardLayout,
        genesisHeight: this.config.genesisHeight,
        epochLength: this.config.epochLength,
        gasPrice: this.config.gasPrice,
        gasLimit: this.config.gasLimit,
        protocolVersion: this.config.protocolVersion,
        totalSupply: this.totalSupply,
        producerStake: this.validatorStakes.get(this.blockProducer.accountId) ?? 0n,
      },
      (height) => {
        const hash = this.chainStore.blockHashAt(height);
        if (hash === undefined) throw new ChainStoreError(`the data dir has no block at height ${height}`);
        return hash;
      },
      this.merkle,
    );
  }

  /** A failed store write: the chain stops producing rather than diverge from its store. */
  private failCommits(e: unknown): never {
    this.stop();
    this.commitFailure = e instanceof Error ? e : new Error(String(e));
    throw this.commitFailure;
  }

  /** Stops block production and closes the chain store (flushing an on-disk one). */
  async close(): Promise<void> {
    this.stop();
    await this.chainStore.close();
  }

  /** True when blocks survive the process (an on-disk chain store). */
  get durable(): boolean {
    return this.chainStore.durable;
  }

  /** Protocol version from genesis (also every header's latest_protocol_version). */
  get protocolVersion(): number {
    return this.config.protocolVersion;
  }

  // ---- blocks ---------------------------------------------------------------------------

  head(): Block {
    return this.history.head();
  }

  blockByHeight(height: number): Block | undefined {
    return this.history.block(height);
  }

  /** By base58 hash. */
  blockByHash(hash: string): Block | undefined {
    return this.history.blockByHash(hash);
  }

  /** optimistic = head, near-final = head - 1, final = head - 2 (clamped to genesis). */
  blockByFinality(finality: Finality): Block {
    return this.blockByHeight(finalityHeight(finality, this.head().height, this.genesisBlock.height))!;
  }

  /** First height of the epoch a block belongs to (status' `epoch_start_height`). */
  epochStartHeight(block: Block): number {
    return this.producer.epochStartHeight(block.height);
  }

  /** The block and shard index a chunk hash belongs to. */
  chunkByHash(chunkHash: string): { block: Block; shardIndex: number } | undefined {
    return this.history.chunk(chunkHash);
  }

  /**
   * Produces the next block now. Every shard gets a chunk: staged changes are written first,
   * then the chunk applies the pooled transactions of signers on the shard, its local,
   * delayed and incoming receipts (see runtime/applyChunk.ts). Receipts the chunks create
   * are routed to their receivers' shards for the next block. Returns the new head.
   */
  produceBlock(): Block {
    if (this.commitFailure !== undefined) throw this.commitFailure;
    const prev = this.head();
    const height = prev.height + 1;
    const newEpoch = this.producer.epochIndexOf(height) !== this.producer.epochIndexOf(prev.height);
    const timestampNs = this.nextTimestamp(prev);
    const ctx: ApplyContext = {
      params: this.runtimeParameters,
      blockHeight: height,
      blockTimestampNs: timestampNs,
      epochHeight: this.producer.epochIndexOf(height) + 1,
      randomSeed: blockRandomSeed(prev.hashBytes, height),
      validatorStakes: this.validatorStakes,
      gasPrice: this.config.gasPrice,
      protocolVersion: this.config.protocolVersion,
      minimumStake: this.minimumStake,
      functionCalls: this.functionCalls,
    };
    const transactions = this.pool.drain(this.shardLayout.numShards);
    const incoming = this.incoming;
    const staged = this.pending;
    const stakeReturns = newEpoch ? [...this.stakeProposals] : [];
    const gasLimit = BigInt(this.config.gasLimit);
    const checkTransaction = (stx: DecodedSignedTransaction) =>
      checkValidityPeriod(this.canonical, prev.height, base58Encode(stx.transaction.blockHash), this.transactionValidityPeriod);

    const results: ChunkResult[] = [];
    const stateChanges: SortedChanges[] = [];
    const causedChanges: KeyStateChanges[][] = [];
    let postState: StateSnapshot[];
    try {
      postState = prev.postState.map((state, i) => {
        const su = new StateUpdate(state);
        staged[i]!.forEach((key, value) => (value === null ? su.remove(key) : su.set(key, value)));
        // nearcore's sandbox state patches are committed as a migration.
        su.commit(MIGRATION);
        const result = applyChunk({
          ctx,
          su,
          gasLimit,
          transactions: transactions[i]!,
          incoming: incoming[i]!,
          checkTransaction,
          stakeReturns: new Map(stakeReturns.filter(([id]) => this.shardLayout.shardIndexOf(id) === i)),
        });
        results.push(result);
        const changes = su.toChangeSet().toSorted();
        stateChanges.push(changes);
        causedChanges.push(su.stateChanges());
        return changes.keys.length === 0 ? state : this.store.commit(state, changes);
      });
    } catch (e) {
      // A runtime bug: leave the chain as it was (pool, in-flight receipts, staged writes).
      transactions.forEach((txs, i) => txs.forEach((stx) => this.pool.add(stx, base58Encode(stx.hash), i)));
      throw e;
    }
    this.pending = this.shardLayout.shardIds.map(() => new ChangeSet());
    const block = this.producer.next(prev, timestampNs, postState, this.executionOf(results, prev.totalSupply));
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
      this.history.append(block, record, this.merkle.completedBy(block.height - this.genesisBlock.height, block.hashBytes));
    } catch (e) {
      // The producer already built this block: producing on would diverge from the store.
      this.failCommits(e);
    }
    this.incoming = this.routedFrom(results);
    this.stakeProposals = epochProposals;
    for (const r of results) for (const { stx } of [...r.included, ...r.dropped]) this.pooled.delete(base58Encode(stx.hash));
    this.subscribers.publish({
      block,
      receiptOutcomes: results.flatMap((r) => r.receiptOutcomes),
      changedKeys: stateChanges.map((c) => c.keys),
      stateChanges: causedChanges,
    });
    for (const listener of this.listeners) {
      try {
        listener(block);
      } catch (e) {
        process.emitWarning(`block listener failed: ${String(e)}`);
      }
    }
    return block;
  }

  /** Receipts the chunks sent on, by the shard index of their receivers (the next block's incoming). */
  private routedFrom(results: readonly ChunkResult[]): Receipt[][] {
    const incoming: Receipt[][] = this.shardLayout.shardIds.map(() => []);
    for (const r of results) for (const receipt of r.outgoing) incoming[this.shardLayout.shardIndexOf(receipt.receiverId)]!.push(receipt);
    return incoming;
  }

  /** What the chunks of a block did, as its header commits to it. */
  private executionOf(results: readonly ChunkResult[], prevTotalSupply: bigint): BlockExecution {
    let burnt = 0n;
    const chunks: ChunkExecution[] = results.map((r) => {
      burnt += r.balanceBurnt;
      return {
        txHashes: r.included.map((t) => t.stx.hash),
        outcomeHashes: [...r.included.map((t): ExecutionOutcome => t.outcome), ...r.receiptOutcomes].map(outcomeHash),
        outgoingReceiptIds: r.outgoing.map((x) => x.receiptId),
        gasUsed: r.gasUsed,
        balanceBurnt: r.balanceBurnt,
        validatorProposals: r.proposals.map((p) => ({
          account_id: p.accountId,
          public_key: p.publicKey,
          stake: p.stake.toString(),
          validator_stake_struct_version: "V1" as const,
        })),
      };
    });
    return { chunks, totalSupply: prevTotalSupply - burnt };
  }

  /**
   * Calls `listener` with each produced block's commit (outcomes, written keys, state changes),
   * in block order, on a later turn of the event loop than the block's production: block
   * production never runs or waits for a subscriber. A listener returning a promise gets its
   * next commit after the promise settles (it falls behind alone). A listener that throws or
   * rejects is reported under `name` (see onSubscriberFailure) and keeps receiving commits.
   * Returns an unsubscribe function.
   */
  onBlockCommit(listener: CommitListener, name: string = listener.name || "anonymous"): () => void {
    return this.subscribers.add(listener, name);
  }

  /** Where failing commit subscribers are reported (default: one line on stderr naming the subscriber). */
  onSubscriberFailure(report: SubscriberFailureReport): void {
    this.subscriberFailureReport = report;
  }

  /** Commits produced but not yet handed to the subscriber(s) called `name`. */
  commitBacklog(name: string): number {
    return this.subscribers.backlog(name);
  }

  private subscriberFailure(name: string, height: number, error: unknown): void {
    if (this.subscriberFailureReport !== undefined) return this.subscriberFailureReport(name, height, error);
    const message = error instanceof Error ? error.message : String(error);
    console.error(`shardkit: block commit subscriber ${name} failed at block ${height}: ${message}`);
  }

  /** The commit of a produced block (undefined for genesis, which has none, and unknown heights). */
  blockCommit(height: number): BlockCommit | undefined {
    return this.history.commit(height);
  }

  /**
   * Every write a block made to accounts, access keys, contract code and contract data, with
   * its causes, over all shards in trie key order (nearcore's state changes of the block).
   * The genesis block lists its records with cause `initial_state`. `block` must be one of
   * this chain's blocks.
   */
  stateChangesInBlock(block: Block): BlockStateChanges {
    if (block.height === this.genesisBlock.height) return genesisStateChanges(this.genesisBlock.postState);
    return recordedStateChanges(this.history.stored(block.height)?.causedChanges ?? []);
  }

  /** The chain as the validity-period check sees it. */
  private readonly canonical: CanonicalChain = {
    heightOf: (hash) => this.chainStore.heightOfBlock(hash),
    hashAt: (height) => {
      const hash = this.chainStore.blockHashAt(height);
      return hash === undefined ? undefined : base58Encode(hash);
    },
  };

  /** Wall-clock ms in ns, strictly after the previous block (ms-aligned numbers print exactly). */
  private nextTimestamp(prev: Block): bigint {
    const now = BigInt(Math.floor(this.now() + this.clockLead)) * 1_000_000n;
    return now > prev.timestampNs ? now : (prev.timestampNs / 1_000_000n + 1n) * 1_000_000n;
  }

  /**
   * Starts block production (no-op when running): every blockTimeMs, or at block time 0 on
   * demand (see BlockScheduler: blocks follow a submitted transaction until its work is done).
   */
  start(): void {
    this.scheduler.start();
  }

  /** Stops block production; safe to call repeatedly. */
  stop(): void {
    this.scheduler.stop();
  }

  get running(): boolean {
    return this.scheduler.running;
  }

  /**
   * Asks the scheduler of an on-demand chain for blocks until `satisfied()` holds (a waiting
   * client: `broadcast_tx_commit`, `wait_until`); a timed chain produces anyway. At most
   * MAX_BLOCKS_PER_DEMAND blocks. Returns a release function for a waiter that gives up.
   */
  requestBlocks(satisfied: () => boolean): () => void {
    return this.scheduler.demand(satisfied);
  }

  /**
   * Receives a scheduled production that failed (a commit the store refused: disk full,
   * read-only); production has stopped. Without a listener the error is thrown out of the
   * timer, which ends the process.
   */
  onProductionFailure(listener: (error: Error) => void): void {
    this.productionFailureListener = listener;
  }

  /** True while another block would execute something: pooled transactions, receipts routed or delayed. */
  hasPendingWork(): boolean {
    if (this.pool.size > 0) return true;
    if (this.incoming.some((receipts) => receipts.length > 0)) return true;
    const head = this.head();
    return head.postState.some((state) => DelayedReceiptQueue.load(new StateUpdate(state)).length > 0);
  }

  /** Calls `listener` after each produced block; returns an unsubscribe function. */
  onBlock(listener: (block: Block) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stages writes for the next produced block (last write per key wins). */
  stage(changes: readonly StateChange[]): void {
    for (const change of changes) {
      const { key, value } = stateChangeToWrite(change);
      const shard = this.shardLayout.shardIndexOf(change.accountId);
      if (value === null) this.pending[shard]!.delete(key);
      else this.pending[shard]!.set(key, value);
    }
  }

  // ---- transactions ----------------------------------------------------------------------

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
    if (this.pooled.has(hash) || this.history.includedTransaction(hash) !== undefined) {
      if (!verifyTransactionSignature(stx)) throw new InvalidTransactionError("InvalidSignature");
      return { hash, known: true };
    }
    const shard = this.validateAtHead(stx);
    this.pool.add(stx, hash, shard);
    this.pooled.set(hash, stx);
    this.scheduler.transactionArrived();
    return { hash, known: false };
  }

  /**
   * Validates a transaction as `submitTransaction` would, without pooling it (nearcore's
   * check-only path of `tx` with a signed transaction). Returns its hash; throws as submit does.
   */
  checkTransaction(signedTxBytes: Uint8Array): string {
    const stx = decodeSignedTransaction(signedTxBytes);
    this.validateAtHead(stx);
    return base58Encode(stx.hash);
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
    const tx = stx.transaction;
    const head = this.head();
    const refuse = (error: InvalidTxErrorJson | undefined): void => {
      if (error !== undefined) throw new InvalidTransactionError(error);
    };
    refuse(checkValidityPeriod(this.canonical, head.height, base58Encode(tx.blockHash), this.transactionValidityPeriod));
    refuse(validateTransaction(this.runtimeParameters, stx, this.config.protocolVersion));
    const shard = this.shardLayout.shardIndexOf(tx.signerId);
    // No block height: as in nearcore, NonceTooLarge is not checked here; inclusion drops such a transaction.
    const verified = verifyAndChargeTransaction(this.runtimeParameters, new StateUpdate(head.postState[shard]!), tx, this.config.gasPrice, { blockHeight: undefined });
    if (!verified.ok) refuse(verified.error);
    return shard;
  }

  /**
   * A transaction's status against the current head, or undefined for a transaction this
   * chain never accepted (or dropped: see `droppedTransaction`). Pooled: NONE without an
   * outcome; included: the nearcore FinalExecutionOutcomeView with all its receipts.
   */
  transactionStatus(hash: string): TransactionStatus | undefined {
    const pooled = this.pooled.get(hash);
    if (pooled !== undefined) return { signerId: pooled.transaction.signerId, finalExecutionStatus: "NONE" };
    const stx = this.history.includedTransaction(hash);
    return stx === undefined ? undefined : includedTransactionStatus(this.lookup, stx);
  }

  /** Why an accepted transaction was left out of a block (it no longer verified), if it was and was not accepted again. */
  droppedTransaction(hash: string): InvalidTxErrorJson | undefined {
    if (this.pooled.has(hash) || this.history.includedTransaction(hash) !== undefined) return undefined;
    return this.history.droppedReason(hash);
  }

  /** A receipt this chain created (executed or not), as nearcore's ReceiptView. */
  receipt(receiptId: string): ReceiptView | undefined {
    const r = this.history.receipt(receiptId);
    return r === undefined ? undefined : toReceiptView(r);
  }

  /** Receipts waiting in a shard's delayed queue after `block`. */
  delayedReceiptCount(block: Block, shardId: number): number {
    return DelayedReceiptQueue.load(new StateUpdate(this.stateAt(block, shardId))).length;
  }

  /** Transaction and receipt lookups in the chain store, with outcome proofs. */
  private readonly lookup: ExecutionLookup = {
    outcome: (id) => this.history.outcome(id),
    receipt: (id) => this.history.receipt(id),
    isFinal: (height) => height <= this.blockByFinality("final").height,
    proof: (record) => this.lightClient.outcomePath(record),
  };

  // ---- shards and state -----------------------------------------------------------------

  /** The shard id an account lives on. */
  shardOf(accountId: string): number {
    return this.shardLayout.shardIdOf(accountId);
  }

  /** A shard's state after `block` (throws for an unknown shard id). */
  stateAt(block: Block, shardId: number): StateSnapshot {
    const index = this.shardLayout.indexOfShardId(shardId);
    if (index === undefined) throw new RangeError(`unknown shard id ${shardId}`);
    return block.postState[index]!;
  }

  /** base58 state root of a shard after `block` (= the next block's chunk prev_state_root). */
  stateRootAfter(block: Block, shardId: number): string {
    return formatCryptoHash(this.stateAt(block, shardId).rootHash);
  }

  private stateOf(block: Block, accountId: string): StateSnapshot {
    return block.postState[this.shardLayout.shardIndexOf(accountId)]!;
  }

  viewAccount(block: Block, accountId: string): AccountView | undefined {
    return viewAccountIn(this.stateOf(block, accountId), accountId);
  }

  /** Storage usage of an account (undefined when it does not exist), without a full decode. */
  accountStorageUsage(block: Block, accountId: string): number | undefined {
    return storageUsageIn(this.stateOf(block, accountId), accountId);
  }

  /** `publicKey` is "ed25519:…"/"secp256k1:…"; throws PublicKeyError when malformed. Nonce is a bigint. */
  viewAccessKey(block: Block, accountId: string, publicKey: string): AccessKey | undefined {
    return viewAccessKeyIn(this.stateOf(block, accountId), accountId, publicKey);
  }

  viewAccessKeys(block: Block, accountId: string): { publicKey: string; accessKey: AccessKey }[] {
    return viewAccessKeysIn(this.stateOf(block, accountId), accountId);
  }

  /**
   * Runs `methodName` of `accountId`'s contract as a view call against the post-state of
   * `block` (nearcore `query` `call_function`). Errors of the call (no code, no such method,
   * a panic, a prohibited host function...) come back in the outcome with nearcore's JSON and
   * legacy message. Throws UnknownAccountError when the account does not exist. `limits`
   * tightens the gas and wall-clock budget (see ViewLimits).
   */
  callFunction(
    block: Block,
    accountId: string,
    methodName: string,
    args: Uint8Array,
    limits?: ViewLimits,
  ): CallFunctionOutcome {
    const state = this.stateOf(block, accountId);
    const account = readAccount(state, accountId);
    if (account === undefined) throw new UnknownAccountError(accountId);
    return viewFunctionCall({
      state,
      block: {
        height: block.height,
        timestampNs: block.timestampNs,
        epochHeight: this.producer.epochIndexOf(block.height) + 1,
        validatorStakes: this.validatorStakes,
      },
      accountId,
      account,
      methodName,
      args,
      params: this.runtimeParameters,
      cache: this.contracts,
      memories: this.memories,
      ...(limits === undefined ? {} : { limits }),
    });
  }

  viewCode(block: Block, accountId: string): Uint8Array | undefined {
    return viewCodeIn(this.stateOf(block, accountId), accountId);
  }

  /** Deployed code length in bytes (0 without code). */
  viewCodeLength(block: Block, accountId: string): number {
    return codeLengthIn(this.stateOf(block, accountId), accountId);
  }

  /** Contract state with nearcore paging (see viewStateIn). Does not check the account exists. */
  viewState(block: Block, accountId: string, options: ViewStateOptions): ViewStateResult {
    return viewStateIn(this.stateOf(block, accountId), accountId, options);
  }
}

/** The random seed contracts see in a block: sha256(prev hash ‖ u64 height) (nearcore derives it from the block's VRF value). */
function blockRandomSeed(prevHash: Uint8Array, height: number): Uint8Array {
  const buf = Buffer.alloc(prevHash.length + 8);
  buf.set(prevHash, 0);
  buf.writeBigUInt64LE(BigInt(height), prevHash.length);
  return sha256(buf);
}
