import { Block } from "./blocks/Block.js";
import { blockExecution } from "./blocks/blockExecution.js";
import { BlockHistory } from "./blocks/BlockHistory.js";
import { BlockMerkleTree } from "./blocks/BlockMerkleTree.js";
import { BlockProducer } from "./blocks/BlockProducer.js";
import { StoredMerkleNodes } from "./blocks/StoredMerkleNodes.js";
import { CommitSubscribers, type CommitListener, type SubscriberFailureReport } from "./blocks/CommitSubscribers.js";
import { LightClientViews } from "./blocks/LightClientViews.js";
import { finalityHeight, type Finality } from "./blocks/finality.js";
import { Producer } from "./client/Producer.js";
import { BlockingRpc, UPSTREAM_DEFAULTS } from "./fork/BlockingRpc.js";
import type { ForkOptions } from "./fork/ForkOptions.js";
import type { ForkPoint } from "./fork/ForkPoint.js";
import { ForkStateStore } from "./fork/ForkStateStore.js";
import { resolveForkPoint } from "./fork/resolveForkPoint.js";
import { UpstreamState } from "./fork/UpstreamState.js";
import { parseCryptoHash } from "./primitives/cryptoHash.js";
import { ViewClient } from "./client/ViewClient.js";
import { defaultGenesisConfig, type GenesisConfig } from "./genesis/GenesisConfig.js";
import type { BlockCommit } from "./blockCommit.js";
import type { ChainReader } from "./ChainReader.js";
import type { GenesisState } from "./genesis/GenesisStateBuilder.js";
import { buildDevGenesis, type DevAccount } from "./genesis/devGenesis.js";
import { devKeyPair } from "./genesis/devKey.js";
import { loadGenesisFile, type GenesisLoadProgress } from "./genesis/loadGenesisFile.js";
import { ShardLayout } from "./shards/ShardLayout.js";
import { readAccount } from "./state/accountViews.js";
import type { StateView } from "./state/StateView.js";
import { ChainStoreError, type ChainStore, type StoredGenesis } from "./store/ChainStore.js";
import { LmdbChainStore } from "./store/LmdbChainStore.js";
import { MemoryChainStore } from "./store/MemoryChainStore.js";
import type { StateSnapshot, StateStore } from "./store/stateStore.js";
import type { FunctionCallExecutor } from "./runtime/functionCallExecutor.js";
import type { ChunkResult } from "./runtime/applyChunk.js";
import type { InvalidTxErrorJson } from "./runtime/invalidTxError.js";
import { runtimeParametersFor, type RuntimeParameters } from "./runtime/parameters.js";
import { MAX_SUPPORTED_PROTOCOL_VERSION } from "./runtime/protocolFeature.js";
import type { Receipt, ReceiptView } from "./runtime/receipt.js";
import { genesisStateChanges, recordedStateChanges, type BlockStateChanges } from "./views/BlockStateChanges.js";
import type { ChunkBodies } from "./views/ChunkBodies.js";
import { blockOutcomes, type ChunkOutcomes } from "./views/blockOutcomes.js";
import type { TransactionStatus } from "./runtime/transactionStatus.js";
import { ContractCache } from "./vm/ContractCache.js";
import { wasmLimitsOf } from "./vm/wasmLimitsOf.js";
import { MemoryPool } from "./vm/MemoryPool.js";
import { createWasmExecutor } from "./vm/wasmExecutor.js";
import { at } from "./must.js";

export { Block } from "./blocks/Block.js";
export type { Finality } from "./blocks/finality.js";
export type { BlockView, BlockHeaderView, ChunkHeaderView } from "./blocks/blockView.js";
export type { DevAccount } from "./genesis/devGenesis.js";
export type { ForkOptions } from "./fork/ForkOptions.js";
export type { ForkPoint } from "./fork/ForkPoint.js";
export { UpstreamRpcError, UpstreamUnavailableError } from "./fork/UpstreamError.js";
export { resolveForkPoint } from "./fork/resolveForkPoint.js";
export type { GenesisLoadProgress } from "./genesis/loadGenesisFile.js";
export type { AccessKey, AccessKeyPermission } from "@shardkit/primitives/accessKey";
export type { AccountView } from "./state/accountViews.js";
export type { StateChange } from "./state/stateChange.js";
export type { BlockCommit } from "./blockCommit.js";
export type { ChainReader } from "./ChainReader.js";
export type { ViewStateOptions, ViewStateResult } from "./state/viewStateIn.js";
export type { StateView } from "./state/StateView.js";
export type { Producer } from "./client/Producer.js";
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
  /** Size from which `genesisFile` is streamed into an on-disk store (see STREAM_GENESIS_FROM_BYTES). */
  readonly streamGenesisFromBytes?: number;
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
  /**
   * Protocol version the chain runs, 1 to MAX_SUPPORTED_PROTOCOL_VERSION; overrides the genesis
   * value and a fork's upstream's (default: DEFAULT_PROTOCOL_VERSION, nearcore's latest release).
   */
  readonly protocolVersion?: number;
  /** Smallest stake a Stake action may ask for (default 0: any positive stake). */
  readonly minimumStake?: bigint;
  /** Runs FunctionCall actions (default: the wasm contract VM, vm/wasmExecutor.ts). */
  readonly functionCalls?: FunctionCallExecutor;
  /**
   * Where the wasm VM keeps prepared contracts across processes (vm/PreparedContractFiles.ts;
   * the CLI passes one directory per user). Default: none, each process prepares its own.
   */
  readonly preparedContractsDir?: string | undefined;
  /**
   * Fork an upstream chain: continue from its block, reading its state lazily beneath the
   * local writes (fork/). A data dir that holds a fork resumes it (the URL may change).
   */
  readonly fork?: ForkOptions;
}

/** nearcore's default `transaction_validity_period`, in blocks. */
export const DEFAULT_TRANSACTION_VALIDITY_PERIOD = 86_400;

const DEV_AUTHOR = "test.near";

/**
 * The simulated sharded chain: per-shard authenticated state, one chunk per shard per block,
 * doomslug-like finality, and every block kept (archival; serving layers apply retention).
 * Reads take a block and see its post-state.
 */
/**
 * The simulated sharded chain, wired after nearcore's split: the chain store keeps everything
 * (blocks/BlockHistory reads it back through bounded caches), `producer` (client/Producer)
 * makes blocks, `view` (client/ViewClient) reads state and outcomes, `lightClient` proves.
 * This class opens a store (a new genesis or a stored chain), wires those parts, fans each
 * commit out to subscribers and answers the ChainReader the serving layers see. Every block is
 * kept (archival; serving layers apply retention). Reads take a block and see its post-state.
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
  /** The runtime parameter table of the chain's protocol version (nearcore's, see runtime/parameters.ts). */
  readonly runtimeParameters: RuntimeParameters;
  /** Blocks a transaction's block hash stays valid for. */
  readonly transactionValidityPeriod: number;

  /** Production: pool, scheduler, produce and commit, and the dev-chain head moves (sandbox/ drives it). */
  readonly producer: Producer;
  /** Reads: state at a block, transaction and receipt status. */
  readonly view: ViewClient;
  /** Light-client proofs and blocks (light_client_proof, next_light_client_block, block proofs). */
  readonly lightClient: LightClientViews;
  /** Transactions and outgoing receipts of every produced chunk (the `chunk` method). */
  readonly chunkBodies: ChunkBodies;
  /** Set on a fork: the upstream block this chain continues from. */
  readonly fork: ForkPoint | undefined;
  /** Set on a fork: the API key the upstream is asked with (never stored in the data dir). */
  readonly forkApiKey: string | undefined;
  /** A fork's reads of the upstream state (its `calls` count the upstream requests). */
  readonly upstreamState: UpstreamState | undefined;
  private readonly upstreamRpc: BlockingRpc | undefined;

  private readonly store: StateStore;
  /** Keeps every block (the seam to disk); a block is reported only after its commit. */
  private readonly chainStore: ChainStore;
  /** Blocks, chunks, transactions, receipts and outcomes, read from the chain store through bounded caches. */
  private readonly history: BlockHistory;
  /** Builds headers, chunk headers and signatures; knows the epochs. */
  private readonly headers: BlockProducer;
  private readonly listeners = new Set<(block: Block) => void>();
  /** Block-commit subscribers, each fed on later turns so none can hold up production. */
  private readonly subscribers = new CommitSubscribers((name, height, error) => this.subscriberFailure(name, height, error));
  private subscriberFailureReport: SubscriberFailureReport | undefined;

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
    preparedContractsDir: string | undefined;
    fork?: { readonly point: ForkPoint; readonly options: ForkOptions | undefined } | undefined;
  }) {
    const { config, layout, author } = init;
    this.config = config;
    this.runtimeParameters = runtimeParametersFor(config.protocolVersion);
    this.chainId = config.chainId;
    this.shardLayout = layout;
    this.devAccounts = init.devAccounts;
    this.transactionValidityPeriod = init.validityPeriod;
    this.blockTimeMs = init.blockTimeMs;
    this.totalSupply = init.state.totalSupply;
    this.chainStore = init.chainStore;
    this.fork = init.fork?.point;
    this.forkApiKey = init.fork?.options?.apiKey;
    if (init.fork === undefined) {
      this.store = init.chainStore.stateStore();
    } else {
      const { point, options } = init.fork;
      this.upstreamRpc = new BlockingRpc({
        ...UPSTREAM_DEFAULTS,
        url: point.url,
        apiKey: options?.apiKey,
        ...(options?.requestsPerSecond !== undefined && { requestsPerSecond: options.requestsPerSecond }),
      });
      this.upstreamState = new UpstreamState(this.upstreamRpc, init.chainStore.forkCache(parseCryptoHash(point.blockHash)), point.blockHash);
      this.store = new ForkStateStore(init.chainStore.stateStore(), this.upstreamState);
    }
    this.blockProducer = { accountId: author, publicKey: devKeyPair(author).publicKeyString };

    const genesisState = this.genesisState(init.state, init.genesisRoots);
    const producerAccount = readAccount(at(genesisState, layout.shardIndexOf(author)), author);
    const validatorStakes = new Map([[author, producerAccount?.locked ?? 0n]]);
    const g = config.genesisHeight;
    // Blocks in the chain, genesis included (0 while the genesis itself is built).
    const treeSize = () => {
      // Read before the constructor has set it: the genesis block is built first.
      const history: BlockHistory | undefined = this.history;
      return history === undefined ? 0 : history.height - g + 1;
    };
    const merkle = new BlockMerkleTree(new StoredMerkleNodes(this.chainStore, g, treeSize));
    this.headers = new BlockProducer(
      {
        author,
        key: devKeyPair(author),
        layout,
        genesisHeight: g,
        epochLength: config.epochLength,
        gasPrice: config.gasPrice,
        gasLimit: config.gasLimit,
        protocolVersion: config.protocolVersion,
        totalSupply: this.totalSupply,
        producerStake: validatorStakes.get(author) ?? 0n,
      },
      (height) => {
        const hash = this.chainStore.blockHashAt(height);
        if (hash === undefined) throw new ChainStoreError(`the data dir has no block at height ${height}`);
        return hash;
      },
      merkle,
    );
    this.genesisBlock = this.headers.genesis(
      config.genesisTimeNs,
      genesisState,
      this.fork && { hash: parseCryptoHash(this.fork.blockHash), prevHash: parseCryptoHash(this.fork.prevHash) },
    );
    const stored = this.chainStore.genesis();
    if (stored === undefined) {
      this.chainStore.initGenesis({
        config,
        layout: { boundaryAccounts: layout.boundaryAccounts, routing: layout.routing, shardIds: layout.shardIds },
        author,
        devGenesis: init.devGenesis,
        shards: init.state.shards,
        stateRoots: genesisState.map((s) => s.rootHash),
        totalSupply: init.state.totalSupply,
        genesisHash: this.genesisBlock.hash,
        ...(this.fork && { fork: this.fork }),
      });
    } else if (stored.genesisHash !== this.genesisBlock.hash) {
      throw new ChainStoreError(`stored genesis ${stored.genesisHash} rebuilds as ${this.genesisBlock.hash}: the data dir does not match this shardkit`);
    }
    // The head is read from the store, not replayed: its record names everything in flight.
    this.history = new BlockHistory(this.chainStore, this.store, this.genesisBlock, (record, parent, postState) =>
      this.headers.next(parent, record.timestampNs, postState, blockExecution(record.chunkResults, parent.totalSupply), record.signatures),
    );
    this.chunkBodies = { get: (chunkHash) => this.history.chunkBody(chunkHash) };
    this.lightClient = new LightClientViews({
      genesisHeight: g,
      layout,
      producer: this.headers,
      head: () => this.head(),
      finalHeight: () => this.blockByFinality("final").height,
      blockByHeight: (height) => this.blockByHeight(height),
      blockByHash: (hash) => this.blockByHash(hash),
      outcome: (id) => this.history.outcome(id),
    });

    const params = this.runtimeParameters;
    // Prepared contracts and guest memories, shared by block production and view calls.
    const contracts = new ContractCache(wasmLimitsOf(params), undefined, undefined, init.preparedContractsDir);
    const memories = new MemoryPool(params.wasm.initialMemoryPages, params.wasm.maxMemoryPages);
    this.producer = new Producer({
      config,
      layout,
      params,
      validityPeriod: init.validityPeriod,
      minimumStake: init.minimumStake,
      functionCalls: init.functionCalls ?? createWasmExecutor({ cache: contracts, memories }),
      validatorStakes,
      blockTimeMs: init.blockTimeMs,
      now: init.now,
      chainStore: this.chainStore,
      states: this.store,
      history: this.history,
      headers: this.headers,
      merkle,
      published: (block, commit) => this.published(block, commit),
      rewound: (height) => this.subscribers.dropAbove(height),
    });
    this.view = new ViewClient({
      history: this.history,
      lightClient: this.lightClient,
      host: { layout, params, contracts, memories, validatorStakes, chainId: this.chainId, epochHeightAt: (height) => this.headers.epochIndexOf(height) + 1 },
      pooledTransaction: (hash) => this.producer.pooledTransaction(hash),
      finalHeight: () => this.blockByFinality("final").height,
    });
    this.resumedAtHeight = stored === undefined ? undefined : this.head().height;
  }

  /** Genesis roots the state store still holds (a reopened on-disk chain), else the tries built from the entries. */
  private genesisState(state: GenesisState, roots: readonly Uint8Array[] | undefined): StateSnapshot[] {
    const kept = roots?.map((r) => this.store.byRoot(r));
    if (kept !== undefined && kept.every((s): s is StateSnapshot => s !== undefined)) return kept;
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
    const version = opts.protocolVersion;
    if (version !== undefined && (!Number.isSafeInteger(version) || version < 1 || version > MAX_SUPPORTED_PROTOCOL_VERSION)) {
      throw new RangeError(`protocolVersion must be an integer from 1 to ${MAX_SUPPORTED_PROTOCOL_VERSION}, got ${version}`);
    }
    const override = (config: GenesisConfig): GenesisConfig => ({
      ...config,
      ...(opts.chainId === undefined ? {} : { chainId: opts.chainId }),
      ...(opts.epochLength === undefined ? {} : { epochLength: opts.epochLength }),
      ...(opts.gasLimit === undefined ? {} : { gasLimit: opts.gasLimit }),
      ...(version === undefined ? {} : { protocolVersion: version }),
    });
    const runtime = {
      validityPeriod,
      minimumStake: opts.minimumStake ?? 0n,
      functionCalls: opts.functionCalls,
      preparedContractsDir: opts.preparedContractsDir,
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
    if (opts.fork !== undefined && opts.genesisFile !== undefined) throw new RangeError("a fork continues its upstream's chain: it takes no genesis file");
    if (opts.genesisFile !== undefined) {
      // An on-disk state store gets a large file's tries straight from the file (bounded memory); their roots come back.
      const loaded = await loadGenesisFile(opts.genesisFile, pickLayout, now(), store, {
        ...(opts.onGenesisProgress && { onProgress: opts.onGenesisProgress }),
        ...(opts.streamGenesisFromBytes !== undefined && { streamFromBytes: opts.streamGenesisFromBytes }),
      });
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
    // The dev genesis; a fork's stands for the upstream block: its height, time and chain id.
    const point = opts.fork === undefined ? undefined : (opts.fork.at ?? (await resolveForkPoint(opts.fork)));
    const config =
      point === undefined
        ? defaultGenesisConfig(opts.genesisTimeMs ?? now(), opts.chainId)
        : {
            ...defaultGenesisConfig(Number(point.timestampNs / 1_000_000n), point.chainId),
            genesisHeight: point.height,
            genesisTimeNs: point.timestampNs,
            // The upstream's rules where shardkit knows them; a newer upstream runs the newest known.
            ...(point.protocolVersion !== undefined && { protocolVersion: Math.min(point.protocolVersion, MAX_SUPPORTED_PROTOCOL_VERSION) }),
          };
    const layout = pickLayout(undefined);
    const { state, devAccounts } = buildDevGenesis(layout);
    return new Chain({
      ...runtime,
      config: override(config),
      layout,
      state,
      devAccounts,
      author: DEV_AUTHOR,
      chainStore,
      devGenesis: true,
      blockTimeMs,
      now,
      ...(point !== undefined && { fork: { point, options: opts.fork } }),
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
      preparedContractsDir: string | undefined;
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
    const fork = stored.fork;
    if (opts.fork !== undefined && fork === undefined) {
      throw new ChainStoreError("the data dir holds a chain that is not a fork (use another --data-dir or --ephemeral)");
    }
    const askedBlock = opts.fork?.block;
    if (fork !== undefined && askedBlock !== undefined && askedBlock !== fork.height && askedBlock !== fork.blockHash) {
      differs("fork block", askedBlock, `${fork.height} (${fork.blockHash})`);
    }
    if (opts.shards !== undefined && opts.shards !== layout.numShards) differs("shard count", opts.shards, layout.numShards);
    if (opts.boundaryAccounts !== undefined && opts.boundaryAccounts.join(",") !== layout.boundaryAccounts.join(",")) {
      differs("boundary accounts", opts.boundaryAccounts.join(","), layout.boundaryAccounts.join(","));
    }
    if (opts.chainId !== undefined && opts.chainId !== stored.config.chainId) differs("chain id", opts.chainId, stored.config.chainId);
    if (opts.epochLength !== undefined && opts.epochLength !== stored.config.epochLength) differs("epoch length", opts.epochLength, stored.config.epochLength);
    if (opts.gasLimit !== undefined && opts.gasLimit !== stored.config.gasLimit) differs("gas limit", opts.gasLimit, stored.config.gasLimit);
    if (opts.protocolVersion !== undefined && opts.protocolVersion !== stored.config.protocolVersion) {
      differs("protocol version", opts.protocolVersion, stored.config.protocolVersion);
    }
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
      // A resumed fork may be pointed at another URL serving the same chain.
      fork: fork && {
        point: { ...fork, ...(opts.fork !== undefined && { url: opts.fork.url, archivalUrl: opts.fork.archivalUrl ?? fork.archivalUrl }) },
        options: opts.fork,
      },
    });
  }

  // ---- lifecycle ------------------------------------------------------------------------------

  /** Stops block production and closes the chain store (flushing an on-disk one). */
  async close(): Promise<void> {
    this.producer.close();
    await this.upstreamRpc?.close();
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

  /**
   * Starts block production (no-op when running): every blockTimeMs, or at block time 0 on
   * demand (see BlockScheduler: blocks follow a submitted transaction until its work is done).
   */
  start(): void {
    this.producer.start();
  }

  /** Stops block production; safe to call repeatedly. */
  stop(): void {
    this.producer.stop();
  }

  get running(): boolean {
    return this.producer.running;
  }

  /**
   * Asks the scheduler of an on-demand chain for blocks until `satisfied()` holds (a waiting
   * client: `broadcast_tx_commit`, `wait_until`); a timed chain produces anyway. At most
   * MAX_BLOCKS_PER_DEMAND blocks. Returns a release function for a waiter that gives up.
   */
  requestBlocks(satisfied: () => boolean): () => void {
    return this.producer.requestBlocks(satisfied);
  }

  /**
   * Receives a scheduled production that failed (a commit the store refused: disk full,
   * read-only); production has stopped. Without a listener the error is thrown out of the
   * timer, which ends the process.
   */
  onProductionFailure(listener: (error: Error) => void): void {
    this.producer.onProductionFailure(listener);
  }

  /** Receives a scheduled production that failed for a passing reason (a fork's upstream down); it is retried shortly. */
  onProductionRetry(listener: (error: Error) => void): void {
    this.producer.onProductionRetry(listener);
  }

  /** Produces the next block now (see Producer.produceBlock); returns the new head. */
  produceBlock(): Block {
    return this.producer.produceBlock();
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
    return this.headers.epochStartHeight(block.height);
  }

  /** The block and shard index a chunk hash belongs to. */
  chunkByHash(chunkHash: string): { block: Block; shardIndex: number } | undefined {
    return this.history.chunk(chunkHash);
  }

  /** Calls `listener` after each produced block; returns an unsubscribe function. */
  onBlock(listener: (block: Block) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ---- block commits ----------------------------------------------------------------------

  /**
   * Calls `listener` with each produced block's commit (outcomes, written keys, state changes),
   * in block order, on a later turn of the event loop than the block's production: block
   * production never runs or waits for a subscriber. A listener returning a promise gets its
   * next commit after the promise settles (it falls behind alone). A listener that throws or
   * rejects is reported under `name` (see onSubscriberFailure) and keeps receiving commits.
   * Commits of blocks a rewind undoes are not delivered: subscribers rebuild from `blockCommit`.
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

  /** The commit of a produced block (undefined for genesis, which has none, and unknown heights). */
  blockCommit(height: number): BlockCommit | undefined {
    return this.history.commit(height);
  }

  /** Per chunk of a produced block (none for genesis): its transactions' and receipts' outcomes with proofs (views/blockOutcomes.ts). */
  blockOutcomes(block: Block): ChunkOutcomes[] {
    return blockOutcomes(block, this.chunkResults(block));
  }

  /** Per chunk of a produced block (none for genesis): what applying it did, as its record keeps it. */
  chunkResults(block: Block): readonly ChunkResult[] {
    return this.history.stored(block.height)?.chunkResults ?? [];
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

  /** A produced block, durable in the store: to the commit subscribers, then the block listeners. */
  private published(block: Block, commit: BlockCommit): void {
    this.subscribers.publish(commit);
    for (const listener of this.listeners) {
      try {
        listener(block);
      } catch (e) {
        process.emitWarning(`block listener failed: ${String(e)}`);
      }
    }
  }

  private subscriberFailure(name: string, height: number, error: unknown): void {
    if (this.subscriberFailureReport !== undefined) return this.subscriberFailureReport(name, height, error);
    const message = error instanceof Error ? error.message : String(error);
    console.error(`shardkit: block commit subscriber ${name} failed at block ${height}: ${message}`);
  }

  // ---- transactions and receipts ----------------------------------------------------------

  /** Validates and pools a borsh SignedTransaction (see Producer.submitTransaction). */
  submitTransaction(signedTxBytes: Uint8Array): { hash: string; known: boolean } {
    return this.producer.submitTransaction(signedTxBytes);
  }

  /** Validates a transaction as `submitTransaction` would, without pooling it; returns its hash. */
  checkTransaction(signedTxBytes: Uint8Array): string {
    return this.producer.checkTransaction(signedTxBytes);
  }

  /** A transaction's status against the head (see ViewClient.transactionStatus). */
  transactionStatus(hash: string): TransactionStatus | undefined {
    return this.view.transactionStatus(hash);
  }

  /** Why an accepted transaction was left out of a block, if it was and was not accepted again. */
  droppedTransaction(hash: string): InvalidTxErrorJson | undefined {
    return this.view.droppedTransaction(hash);
  }

  /** A receipt this chain created (executed or not), as nearcore's ReceiptView. */
  receipt(receiptId: string): ReceiptView | undefined {
    return this.view.receipt(receiptId);
  }

  /** A receipt this chain created, as the chain keeps it (`receipt` gives its view). */
  receiptRecord(receiptId: string): Receipt | undefined {
    return this.history.receipt(receiptId);
  }

  /** The transaction a receipt descends from, and its signer (see ViewClient.receiptOrigin). */
  receiptOrigin(receiptId: string): { transactionHash: string; senderId: string } | undefined {
    return this.view.receiptOrigin(receiptId);
  }

  // ---- state ----------------------------------------------------------------------------

  /** The shard id an account lives on. */
  shardOf(accountId: string): number {
    return this.shardLayout.shardIdOf(accountId);
  }

  /** The state after `block` (one of this chain's blocks): accounts, keys, code, paged state, view calls. */
  at(block: Block): StateView {
    return this.view.at(block);
  }
}
