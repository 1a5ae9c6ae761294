import { Block } from "./blocks/Block.js";
import { BlockProducer } from "./blocks/BlockProducer.js";
import { finalityHeight, type Finality } from "./blocks/finality.js";
import { defaultGenesisConfig, type GenesisConfig } from "./genesis/GenesisConfig.js";
import type { GenesisState } from "./genesis/GenesisStateBuilder.js";
import { buildDevGenesis, type DevAccount } from "./genesis/devGenesis.js";
import { devKeyPair } from "./genesis/devKey.js";
import { loadGenesisFile } from "./genesis/loadGenesisFile.js";
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
import { MemoryStateStore } from "./store/MemoryStateStore.js";
import type { StateSnapshot, StateStore } from "./store/stateStore.js";

export { Block } from "./blocks/Block.js";
export type { Finality } from "./blocks/finality.js";
export type { BlockView, BlockHeaderView, ChunkHeaderView } from "./blocks/blockView.js";
export type { DevAccount } from "./genesis/devGenesis.js";
export type { AccessKey, AccessKeyPermission } from "./primitives/accessKey.js";
export type { AccountView } from "./state/accountViews.js";
export type { StateChange } from "./state/stateChange.js";
export type { ViewStateOptions, ViewStateResult } from "./state/viewStateIn.js";

export interface ChainOptions {
  /** Shard count for the default layout (default 4; see defaultBoundaryAccounts). */
  readonly shards?: number;
  /** Explicit boundary accounts (shards = length + 1); wins over `shards` and the file. */
  readonly boundaryAccounts?: readonly string[];
  /** Block interval for start(); 0 = blocks only on produceBlock() (default 1000). */
  readonly blockTimeMs?: number;
  /** nearcore-format genesis JSON; without it the dev genesis is used. */
  readonly genesisFile?: string;
  /** Overrides the default / file chain id. */
  readonly chainId?: string;
  /** State backend (default: in-memory). */
  readonly store?: StateStore;
  /** Clock in Unix ms (tests). */
  readonly now?: () => number;
}

const DEV_AUTHOR = "test.near";

/**
 * The simulated sharded chain: per-shard authenticated state, one chunk per shard per block,
 * doomslug-like finality, and every block kept (archival; serving layers apply retention).
 * Reads take a block and see its post-state.
 */
export class Chain {
  readonly chainId: string;
  readonly shardLayout: ShardLayout;
  readonly config: GenesisConfig;
  readonly blockTimeMs: number;
  readonly genesisBlock: Block;
  /** Dev accounts with their keys (empty when loaded from a genesis file). */
  readonly devAccounts: readonly DevAccount[];
  /** Sum of all balances at genesis. */
  readonly totalSupply: bigint;
  /** The single block producer (author of every block) and the key that signs blocks. */
  readonly blockProducer: { readonly accountId: string; readonly publicKey: string };

  private readonly store: StateStore;
  private readonly producer: BlockProducer;
  private readonly now: () => number;
  private readonly blocks: Block[] = [];
  private readonly byHash = new Map<string, Block>();
  private readonly chunks = new Map<string, { block: Block; shardIndex: number }>();
  private readonly pending: ChangeSet[];
  private readonly listeners = new Set<(block: Block) => void>();
  private timer: NodeJS.Timeout | undefined;

  private constructor(init: {
    config: GenesisConfig;
    layout: ShardLayout;
    state: GenesisState;
    devAccounts: DevAccount[];
    author: string;
    store: StateStore;
    blockTimeMs: number;
    now: () => number;
  }) {
    this.config = init.config;
    this.chainId = init.config.chainId;
    this.shardLayout = init.layout;
    this.devAccounts = init.devAccounts;
    this.store = init.store;
    this.blockTimeMs = init.blockTimeMs;
    this.now = init.now;
    this.totalSupply = init.state.totalSupply;
    this.pending = init.layout.shardIds.map(() => new ChangeSet());
    const producerKey = devKeyPair(init.author);
    this.blockProducer = { accountId: init.author, publicKey: producerKey.publicKeyString };
    this.producer = new BlockProducer(
      {
        author: init.author,
        key: producerKey,
        layout: init.layout,
        genesisHeight: init.config.genesisHeight,
        epochLength: init.config.epochLength,
        gasPrice: init.config.gasPrice,
        gasLimit: init.config.gasLimit,
        protocolVersion: init.config.protocolVersion,
        totalSupply: init.state.totalSupply,
      },
      (height) => this.blockByHeight(height)!.hashBytes,
    );
    const genesisState = init.state.shards.map((s) => this.store.build(s.keys, s.values));
    this.genesisBlock = this.record(this.producer.genesis(init.config.genesisTimeNs, genesisState));
  }

  /** Builds the genesis (from a file, streamed, or the dev genesis) and returns the chain. */
  static async open(opts: ChainOptions = {}): Promise<Chain> {
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
    const store = opts.store ?? new MemoryStateStore();
    if (opts.genesisFile !== undefined) {
      const loaded = await loadGenesisFile(opts.genesisFile, pickLayout, now());
      const config = opts.chainId === undefined ? loaded.config : { ...loaded.config, chainId: opts.chainId };
      return new Chain({
        config,
        layout: loaded.layout,
        state: loaded.state,
        devAccounts: [],
        author: config.blockProducer ?? loaded.firstAccountId ?? DEV_AUTHOR,
        store,
        blockTimeMs,
        now,
      });
    }
    const layout = pickLayout(undefined);
    const { state, devAccounts } = buildDevGenesis(layout);
    return new Chain({
      config: defaultGenesisConfig(now(), opts.chainId),
      layout,
      state,
      devAccounts,
      author: DEV_AUTHOR,
      store,
      blockTimeMs,
      now,
    });
  }

  private record(block: Block): Block {
    this.blocks.push(block);
    this.byHash.set(block.hash, block);
    block.view.chunks.forEach((c, shardIndex) => this.chunks.set(c.chunk_hash, { block, shardIndex }));
    return block;
  }

  /** Protocol version from genesis (also every header's latest_protocol_version). */
  get protocolVersion(): number {
    return this.config.protocolVersion;
  }

  // ---- blocks ---------------------------------------------------------------------------

  head(): Block {
    return this.blocks[this.blocks.length - 1]!;
  }

  blockByHeight(height: number): Block | undefined {
    if (!Number.isInteger(height)) return undefined;
    return this.blocks[height - this.genesisBlock.height];
  }

  /** By base58 hash. */
  blockByHash(hash: string): Block | undefined {
    return this.byHash.get(hash);
  }

  /** optimistic = head, near-final = head - 1, final = head - 2 (clamped to genesis). */
  blockByFinality(finality: Finality): Block {
    return this.blockByHeight(finalityHeight(finality, this.head().height, this.genesisBlock.height))!;
  }

  /** The block and shard index a chunk hash belongs to. */
  chunkByHash(chunkHash: string): { block: Block; shardIndex: number } | undefined {
    return this.chunks.get(chunkHash);
  }

  /**
   * Produces the next block now: every shard gets a chunk; staged changes are applied to
   * their shards' state. Returns the new head.
   */
  produceBlock(): Block {
    const prev = this.head();
    const postState = prev.postState.map((state, i) => {
      const changes = this.pending[i]!;
      if (changes.size === 0) return state;
      this.pending[i] = new ChangeSet();
      return this.store.commit(state, changes.toSorted());
    });
    const block = this.record(this.producer.next(prev, this.nextTimestamp(prev), postState));
    for (const listener of this.listeners) {
      try {
        listener(block);
      } catch (e) {
        process.emitWarning(`block listener failed: ${String(e)}`);
      }
    }
    return block;
  }

  /** Wall-clock ms in ns, strictly after the previous block (ms-aligned numbers print exactly). */
  private nextTimestamp(prev: Block): bigint {
    const now = BigInt(Math.floor(this.now())) * 1_000_000n;
    return now > prev.timestampNs ? now : (prev.timestampNs / 1_000_000n + 1n) * 1_000_000n;
  }

  /** Starts timed production every blockTimeMs (no-op when 0 or already running). */
  start(): void {
    if (this.timer !== undefined || this.blockTimeMs <= 0) return;
    const tick = (): void => {
      this.produceBlock();
      if (this.timer === undefined) return; // stop() was called by a listener
      this.timer = setTimeout(tick, this.blockTimeMs);
      this.timer.unref(); // an idle chain alone must not keep the process alive
    };
    this.timer = setTimeout(tick, this.blockTimeMs);
    this.timer.unref();
  }

  /** Stops timed production; safe to call repeatedly. */
  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  get running(): boolean {
    return this.timer !== undefined;
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
