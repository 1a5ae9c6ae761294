import { base58Encode } from "../primitives/base58.js";
import { BorshWriter } from "../primitives/borshWriter.js";
import { ZERO_HASH, formatCryptoHash, type CryptoHash } from "../primitives/cryptoHash.js";
import type { Ed25519KeyPair } from "../primitives/ed25519.js";
import { sha256 } from "../primitives/sha256.js";
import type { ShardLayout } from "../shards/ShardLayout.js";
import type { StateSnapshot } from "../store/stateStore.js";
import { Block } from "./Block.js";
import { BlockMerkleAccumulator } from "./BlockMerkleAccumulator.js";
import type { BlockHeaderView, ChunkHeaderView } from "./blockView.js";
import { merkleRoot } from "./merkle.js";

export interface BlockProducerConfig {
  readonly author: string;
  readonly key: Ed25519KeyPair;
  readonly layout: ShardLayout;
  readonly genesisHeight: number;
  readonly epochLength: number;
  readonly gasPrice: bigint;
  readonly gasLimit: number;
  readonly protocolVersion: number;
  readonly totalSupply: bigint;
}

/** nearcore's empty signature (genesis): "ed25519:" + base58 of 64 zero bytes. */
export const EMPTY_SIGNATURE = `ed25519:${"1".repeat(64)}`;

/**
 * Builds blocks and their chunk headers. Every block has one new chunk per shard (no
 * missing chunks). Hashes are sha256 of our own borsh-style header/chunk encodings (not
 * nearcore's inner_lite/inner_rest split); signatures are real ed25519 over those hashes
 * with the producer key. Epochs follow nearcore's id rule: the first epoch's id is the zero
 * hash, epoch e+1's id is the hash of the last block of epoch e-1 (the genesis for e = 0).
 */
export class BlockProducer {
  private readonly merkle = new BlockMerkleAccumulator();
  private readonly bpHash: CryptoHash;

  constructor(
    private readonly cfg: BlockProducerConfig,
    /** Hash of an already produced block by height. */
    private readonly hashAt: (height: number) => CryptoHash,
  ) {
    this.bpHash = sha256(
      new BorshWriter().u32(1).string(cfg.author).u8(0).fixed(cfg.key.publicKey.data).u128(0n).toBytes(),
    );
  }

  private epochIndex(height: number): number {
    const g = this.cfg.genesisHeight;
    return height <= g ? 0 : Math.floor((height - g - 1) / this.cfg.epochLength);
  }

  private lastBlockOfEpoch(e: number): number {
    return this.cfg.genesisHeight + (e + 1) * this.cfg.epochLength;
  }

  private epochId(e: number): CryptoHash {
    if (e === 0) return ZERO_HASH;
    if (e === 1) return this.hashAt(this.cfg.genesisHeight);
    return this.hashAt(this.lastBlockOfEpoch(e - 2));
  }

  /** The genesis block: chunks carry the genesis state roots, nothing is signed. */
  genesis(timestampNs: bigint, state: readonly StateSnapshot[]): Block {
    return this.build({
      height: this.cfg.genesisHeight,
      prev: undefined,
      timestampNs,
      prevStateRoots: state.map((s) => s.rootHash),
      postState: state,
    });
  }

  /** The block after `prev`, whose chunks turned prev's post-state into `postState`. */
  next(prev: Block, timestampNs: bigint, postState: readonly StateSnapshot[]): Block {
    return this.build({
      height: prev.height + 1,
      prev,
      timestampNs,
      prevStateRoots: prev.postState.map((s) => s.rootHash),
      postState,
    });
  }

  private build(input: {
    height: number;
    prev: Block | undefined;
    timestampNs: bigint;
    prevStateRoots: readonly CryptoHash[];
    postState: readonly StateSnapshot[];
  }): Block {
    const { height, prev, timestampNs, prevStateRoots, postState } = input;
    const cfg = this.cfg;
    const isGenesis = prev === undefined;
    const prevHash = isGenesis ? ZERO_HASH : prev.hashBytes;
    const sign = (msg: CryptoHash) => (isGenesis ? EMPTY_SIGNATURE : `ed25519:${base58Encode(cfg.key.sign(msg))}`);

    // Chunks: empty bodies (no transactions or receipts yet), one per shard.
    const body = new BorshWriter().u32(0).u32(0).toBytes();
    const encodedMerkleRoot = sha256(body);
    const chunks: ChunkHeaderView[] = [];
    const chunkHashes: CryptoHash[] = [];
    const zero = formatCryptoHash(ZERO_HASH);
    cfg.layout.shardIds.forEach((shardId, i) => {
      const prevStateRoot = prevStateRoots[i]!;
      const chunkHash = sha256(
        new BorshWriter()
          .fixed(prevHash)
          .fixed(prevStateRoot)
          .fixed(ZERO_HASH) // outcome_root
          .fixed(encodedMerkleRoot)
          .u64(body.length)
          .u64(height)
          .u64(shardId)
          .u64(0) // gas_used
          .u64(cfg.gasLimit)
          .u128(0n) // balance_burnt
          .fixed(ZERO_HASH) // outgoing_receipts_root
          .fixed(ZERO_HASH) // tx_root
          .toBytes(),
      );
      chunkHashes.push(chunkHash);
      chunks.push({
        chunk_hash: formatCryptoHash(chunkHash),
        prev_block_hash: formatCryptoHash(prevHash),
        outcome_root: zero,
        prev_state_root: formatCryptoHash(prevStateRoot),
        encoded_merkle_root: formatCryptoHash(encodedMerkleRoot),
        encoded_length: body.length,
        height_created: height,
        height_included: height,
        shard_id: shardId,
        gas_used: 0,
        gas_limit: cfg.gasLimit,
        rent_paid: "0",
        validator_reward: "0",
        balance_burnt: "0",
        outgoing_receipts_root: zero,
        tx_root: zero,
        validator_proposals: [],
        signature: sign(chunkHash),
        congestion_info: { allowed_shard: shardId, buffered_receipts_gas: "0", delayed_receipts_gas: "0", receipt_bytes: 0 },
        bandwidth_requests: null,
      });
    });

    const epoch = this.epochIndex(height);
    const epochId = this.epochId(epoch);
    // The genesis block cannot name itself: both of its epoch ids are zero, as in nearcore.
    const nextEpochId = isGenesis ? ZERO_HASH : this.epochId(epoch + 1);
    const g = cfg.genesisHeight;
    const lastDsFinal = isGenesis ? ZERO_HASH : prev.hashBytes;
    const lastFinal = isGenesis ? ZERO_HASH : this.hashAt(Math.max(g, height - 2));
    const randomValue = isGenesis
      ? ZERO_HASH
      : sha256(new BorshWriter().fixed(prev.hashBytes).u64(height).toBytes());
    const blockMerkleRoot = this.merkle.root(); // over all blocks before this one
    const blockOrdinal = height - g + 1;
    const zeros = chunks.map(() => ZERO_HASH);
    const prevStateRoot = merkleRoot(prevStateRoots);
    const chunkHeadersRoot = merkleRoot(chunkHashes);
    const chunkTxRoot = merkleRoot(zeros);
    const outcomeRoot = merkleRoot(zeros);
    const chunkReceiptsRoot = merkleRoot(zeros);
    const blockBodyHash = sha256(new BorshWriter().u32(chunkHashes.length).fixed(chunkHeadersRoot).u32(0).toBytes());
    const chunkMask = chunks.map(() => true);

    const hashInput = new BorshWriter()
      .u64(height)
      .u64(isGenesis ? 0 : prev.height)
      .fixed(prevHash)
      .fixed(epochId)
      .fixed(nextEpochId)
      .fixed(prevStateRoot)
      .fixed(blockBodyHash)
      .fixed(chunkReceiptsRoot)
      .fixed(chunkHeadersRoot)
      .fixed(chunkTxRoot)
      .fixed(outcomeRoot)
      .u64(timestampNs)
      .fixed(randomValue)
      .u128(cfg.gasPrice)
      .u64(blockOrdinal)
      .u128(cfg.totalSupply)
      .fixed(lastFinal)
      .fixed(lastDsFinal)
      .fixed(this.bpHash)
      .fixed(blockMerkleRoot)
      .u32(cfg.protocolVersion)
      .u32(chunkMask.length);
    for (const m of chunkMask) hashInput.bool(m);
    const hashBytes = sha256(hashInput.toBytes());
    const hash = formatCryptoHash(hashBytes);

    const approval = isGenesis
      ? []
      : [`ed25519:${base58Encode(cfg.key.sign(sha256(new BorshWriter().u8(0).fixed(prev.hashBytes).u64(height).toBytes())))}`];

    const header: BlockHeaderView = {
      height,
      prev_height: isGenesis ? 0 : prev.height,
      epoch_id: formatCryptoHash(epochId),
      next_epoch_id: formatCryptoHash(nextEpochId),
      hash,
      prev_hash: formatCryptoHash(prevHash),
      prev_state_root: formatCryptoHash(prevStateRoot),
      block_body_hash: formatCryptoHash(blockBodyHash),
      chunk_receipts_root: formatCryptoHash(chunkReceiptsRoot),
      chunk_headers_root: formatCryptoHash(chunkHeadersRoot),
      chunk_tx_root: formatCryptoHash(chunkTxRoot),
      outcome_root: formatCryptoHash(outcomeRoot),
      chunks_included: chunks.length,
      challenges_root: zero,
      timestamp: Number(timestampNs),
      timestamp_nanosec: timestampNs.toString(),
      random_value: formatCryptoHash(randomValue),
      validator_proposals: [],
      chunk_mask: chunkMask,
      gas_price: cfg.gasPrice.toString(),
      block_ordinal: blockOrdinal,
      rent_paid: "0",
      validator_reward: "0",
      total_supply: cfg.totalSupply.toString(),
      challenges_result: [],
      last_final_block: formatCryptoHash(lastFinal),
      last_ds_final_block: formatCryptoHash(lastDsFinal),
      next_bp_hash: formatCryptoHash(this.bpHash),
      block_merkle_root: formatCryptoHash(blockMerkleRoot),
      epoch_sync_data_hash: null,
      approvals: approval,
      signature: sign(hashBytes),
      latest_protocol_version: cfg.protocolVersion,
      chunk_endorsements: chunks.map(() => (isGenesis ? [0] : [1])),
    };
    this.merkle.append(hashBytes);
    return new Block(height, hash, hashBytes, timestampNs, { author: cfg.author, header, chunks }, postState);
  }
}
