import { base58Encode } from "@shardkit/primitives/base58";
import { BorshWriter } from "@shardkit/primitives/borshWriter";
import { ZERO_HASH, ZERO_HASH_BASE58, formatCryptoHash, type CryptoHash } from "../primitives/cryptoHash.js";
import type { Ed25519KeyPair } from "../primitives/ed25519.js";
import { sha256 } from "../primitives/sha256.js";
import type { ShardLayout } from "../shards/ShardLayout.js";
import type { StateSnapshot } from "../store/stateStore.js";
import { parsePublicKey, publicKeyToBorsh } from "@shardkit/primitives/publicKey";
import { Block, type BlockParent, type BlockSignatures } from "./Block.js";
import type { BlockMerkleTree } from "./BlockMerkleTree.js";
import type { BlockHeaderView, ChunkHeaderView, ValidatorStakeView } from "./blockView.js";
import { blockHashFromParts, innerLiteBytes, type InnerLite } from "./blockHeaderHash.js";
import { merkleRoot, merkleRootOfHashes, type MerklePathStep } from "./merkle.js";
import { at } from "../must.js";

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
  /** The producer's stake in every epoch's block producer list (next_bps, next_bp_hash). */
  readonly producerStake: bigint;
}

/** What a chunk's execution contributes to its header (all empty for an empty chunk). */
export interface ChunkExecution {
  /** Hashes of the chunk's transactions, in order. */
  readonly txHashes: readonly CryptoHash[];
  /** Leaves of the outcome root (transaction and receipt outcomes, in order). */
  readonly outcomeHashes: readonly CryptoHash[];
  /** Ids of the receipts the chunk sends on. */
  readonly outgoingReceiptIds: readonly CryptoHash[];
  readonly gasUsed: bigint;
  readonly balanceBurnt: bigint;
  readonly validatorProposals: readonly ValidatorStakeView[];
}

/** The execution of a block: one entry per shard (shard order) and the resulting total supply. */
export interface BlockExecution {
  readonly chunks: readonly ChunkExecution[];
  readonly totalSupply: bigint;
}

const EMPTY_CHUNK: ChunkExecution = {
  txHashes: [],
  outcomeHashes: [],
  outgoingReceiptIds: [],
  gasUsed: 0n,
  balanceBurnt: 0n,
  validatorProposals: [],
};

/** nearcore's empty signature (genesis): "ed25519:" + base58 of 64 zero bytes. */
export const EMPTY_SIGNATURE = `ed25519:${"1".repeat(64)}`;

/** borsh Vec<ValidatorStake> (each V1: tag 0, account id, public key, u128 stake), the preimage of next_bp_hash. */
export function validatorStakesBorsh(stakes: readonly ValidatorStakeView[]): Uint8Array {
  const w = new BorshWriter().u32(stakes.length);
  for (const v of stakes) w.u8(0).string(v.account_id).fixed(publicKeyToBorsh(parsePublicKey(v.public_key))).u128(BigInt(v.stake));
  return w.toBytes();
}

/** The data a block approval signs: borsh ApprovalInner::Endorsement(prev hash) ‖ u64 LE target height (nearcore `Approval::get_data_for_sig`). */
export function endorsementMessage(prevHash: CryptoHash, targetHeight: number): Uint8Array {
  return new BorshWriter().u8(0).fixed(prevHash).u64(targetHeight).toBytes();
}

/**
 * Builds blocks and their chunk headers. Every block has one new chunk per shard (no
 * missing chunks). The block hash is nearcore's: sha256(sha256(sha256(borsh inner_lite) ‖
 * sha256(borsh inner_rest)) ‖ prev_hash), with inner_lite exactly nearcore's and inner_rest
 * our own encoding of the remaining header fields (light clients only ever see its hash).
 * Header roots are nearcore `merklize` roots; a chunk's `outcome_root` is the root of the
 * previous chunk's outcomes of its shard, as in nearcore. Signatures are real ed25519 with the
 * producer key: the block over its hash, the approval over nearcore's approval data.
 * Epochs follow nearcore's id rule: the first epoch's id is the zero hash, epoch e+1's id is
 * the hash of the last block of epoch e-1 (the genesis for e = 0).
 */
export class BlockProducer {
  private readonly bpHash: CryptoHash;
  /** The single block producer as every epoch's `next_bps` lists it. */
  readonly blockProducers: readonly ValidatorStakeView[];

  constructor(
    private readonly cfg: BlockProducerConfig,
    /** Hash of an already produced block by height. */
    private readonly hashAt: (height: number) => CryptoHash,
    /** The tree over every produced block's hash (`block_merkle_root`), kept by the chain store. */
    private readonly merkle: BlockMerkleTree,
  ) {
    this.blockProducers = [
      { account_id: cfg.author, public_key: cfg.key.publicKeyString, stake: cfg.producerStake.toString(), validator_stake_struct_version: "V1" },
    ];
    this.bpHash = sha256(validatorStakesBorsh(this.blockProducers));
  }

  /** Path of the block with ordinal index `leaf` (height - genesis) to the block_merkle_root of the block with index `size`. */
  blockProof(leaf: number, size: number): MerklePathStep[] {
    return this.merkle.pathAt(leaf, size);
  }

  /** Index of the epoch a height belongs to (0 for the genesis and the first epoch). */
  epochIndexOf(height: number): number {
    const g = this.cfg.genesisHeight;
    return height <= g ? 0 : Math.floor((height - g - 1) / this.cfg.epochLength);
  }

  /** First height of the epoch `height` is in: the genesis block opens epoch 0. */
  epochStartHeight(height: number): number {
    const e = this.epochIndexOf(height);
    return e === 0 ? this.cfg.genesisHeight : this.cfg.genesisHeight + 1 + e * this.cfg.epochLength;
  }

  /** Height of the last block of epoch `e`. */
  lastBlockOfEpoch(e: number): number {
    return this.cfg.genesisHeight + (e + 1) * this.cfg.epochLength;
  }

  private epochId(e: number): CryptoHash {
    if (e === 0) return ZERO_HASH;
    if (e === 1) return this.hashAt(this.cfg.genesisHeight);
    return this.hashAt(this.lastBlockOfEpoch(e - 2));
  }

  /** The genesis block: chunks carry the genesis state roots, nothing is signed. */
  /**
   * The genesis block. A fork's genesis stands for the upstream block it continues from:
   * `forkOf` gives that block's hash (the parent of the first local block) and its parent's.
   */
  genesis(timestampNs: bigint, state: readonly StateSnapshot[], forkOf?: { readonly hash: Uint8Array; readonly prevHash: Uint8Array }): Block {
    return this.build({
      height: this.cfg.genesisHeight,
      prev: undefined,
      timestampNs,
      prevStateRoots: state.map((s) => s.rootHash),
      postState: state,
      execution: undefined,
      forkOf,
    });
  }

  /**
   * The block after `prev`, whose chunks turned prev's post-state into `postState`.
   * Without `execution` its chunks are empty and the total supply is unchanged.
   */
  next(prev: BlockParent, timestampNs: bigint, postState: readonly StateSnapshot[], execution?: BlockExecution, signatures?: BlockSignatures): Block {
    return this.build({
      signatures,
      height: prev.height + 1,
      prev,
      timestampNs,
      prevStateRoots: prev.stateRoots,
      postState,
      execution,
    });
  }

  private build(input: {
    height: number;
    prev: BlockParent | undefined;
    timestampNs: bigint;
    prevStateRoots: readonly CryptoHash[];
    postState: readonly StateSnapshot[];
    execution: BlockExecution | undefined;
    /** Signatures of a stored block (absent: signed now). */
    signatures?: BlockSignatures | undefined;
    forkOf?: { readonly hash: Uint8Array; readonly prevHash: Uint8Array } | undefined;
  }): Block {
    const { height, prev, timestampNs, prevStateRoots, postState, execution, signatures, forkOf } = input;
    const cfg = this.cfg;
    const isGenesis = prev === undefined;
    const prevHash = isGenesis ? (forkOf?.prevHash ?? ZERO_HASH) : prev.hashBytes;
    const prevHashText = formatCryptoHash(prevHash);
    const signBytes = (msg: Uint8Array) => cfg.key.sign(msg);
    const chunkSignatures: Uint8Array[] = [];
    const signatureText = (bytes: Uint8Array) => (isGenesis ? EMPTY_SIGNATURE : `ed25519:${base58Encode(bytes)}`);

    // Chunks: one per shard. The body lists the transaction hashes and outgoing receipt ids
    // (u32 count ‖ hashes, twice); an empty chunk's body is two zero counts.
    const chunks: ChunkHeaderView[] = [];
    const chunkHashes: CryptoHash[] = [];
    const txRoots: CryptoHash[] = [];
    const prevOutcomeRoots: CryptoHash[] = [];
    const receiptRoots: CryptoHash[] = [];
    const outcomeLeaves: (readonly CryptoHash[])[] = [];
    const outcomeRoots: CryptoHash[] = [];
    const totalSupply = execution?.totalSupply ?? (isGenesis ? cfg.totalSupply : prev.totalSupply);
    cfg.layout.shardIds.forEach((shardId, i) => {
      const exec = execution?.chunks[i] ?? EMPTY_CHUNK;
      const bodyWriter = new BorshWriter().u32(exec.txHashes.length);
      for (const h of exec.txHashes) bodyWriter.fixed(h);
      bodyWriter.u32(exec.outgoingReceiptIds.length);
      for (const h of exec.outgoingReceiptIds) bodyWriter.fixed(h);
      const body = bodyWriter.toBytes();
      const encodedMerkleRoot = sha256(body);
      const txRoot = merkleRoot(exec.txHashes);
      // The header carries the previous chunk's outcome root; this chunk's goes to the next block.
      const prevOutcomeRoot = isGenesis ? ZERO_HASH : at(prev.outcomeRoots, i);
      outcomeLeaves.push([...exec.outcomeHashes]);
      outcomeRoots.push(merkleRootOfHashes(exec.outcomeHashes));
      const receiptsRoot = merkleRoot(exec.outgoingReceiptIds);
      txRoots.push(txRoot);
      prevOutcomeRoots.push(prevOutcomeRoot);
      receiptRoots.push(receiptsRoot);
      const prevStateRoot = at(prevStateRoots, i);
      const chunkHash = sha256(
        new BorshWriter()
          .fixed(prevHash)
          .fixed(prevStateRoot)
          .fixed(prevOutcomeRoot)
          .fixed(encodedMerkleRoot)
          .u64(body.length)
          .u64(height)
          .u64(shardId)
          .u64(exec.gasUsed)
          .u64(cfg.gasLimit)
          .u128(exec.balanceBurnt)
          .fixed(receiptsRoot)
          .fixed(txRoot)
          .toBytes(),
      );
      chunkHashes.push(chunkHash);
      chunks.push({
        chunk_hash: formatCryptoHash(chunkHash),
        prev_block_hash: prevHashText,
        outcome_root: formatCryptoHash(prevOutcomeRoot),
        prev_state_root: formatCryptoHash(prevStateRoot),
        encoded_merkle_root: formatCryptoHash(encodedMerkleRoot),
        encoded_length: body.length,
        height_created: height,
        height_included: height,
        shard_id: shardId,
        gas_used: Number(exec.gasUsed),
        gas_limit: cfg.gasLimit,
        rent_paid: "0",
        validator_reward: "0",
        balance_burnt: exec.balanceBurnt.toString(),
        outgoing_receipts_root: formatCryptoHash(receiptsRoot),
        tx_root: formatCryptoHash(txRoot),
        validator_proposals: [...exec.validatorProposals],
        signature: signatureText(chunkSignatures[i] = isGenesis ? new Uint8Array(0) : (signatures?.chunks[i] ?? signBytes(chunkHash))),
        congestion_info: { allowed_shard: shardId, buffered_receipts_gas: "0", delayed_receipts_gas: "0", receipt_bytes: 0 },
        bandwidth_requests: null,
      });
    });

    const epoch = this.epochIndexOf(height);
    const epochId = this.epochId(epoch);
    // The genesis block cannot name itself: both of its epoch ids are zero, as in nearcore.
    const nextEpochId = isGenesis ? ZERO_HASH : this.epochId(epoch + 1);
    const g = cfg.genesisHeight;
    const lastDsFinal = isGenesis ? ZERO_HASH : prev.hashBytes;
    const lastFinal = isGenesis ? ZERO_HASH : this.hashAt(Math.max(g, height - 2));
    const randomValue = isGenesis
      ? ZERO_HASH
      : sha256(new BorshWriter().fixed(prev.hashBytes).u64(height).toBytes());
    const blockMerkleRoot = this.merkle.rootAt(height - cfg.genesisHeight); // over all blocks before this one
    const blockOrdinal = height - g + 1;
    const prevStateRoot = merkleRoot(prevStateRoots);
    const chunkHeadersRoot = merkleRoot(chunkHashes);
    const chunkTxRoot = merkleRoot(txRoots);
    const outcomeRoot = merkleRoot(prevOutcomeRoots);
    const chunkReceiptsRoot = merkleRoot(receiptRoots);
    const blockBodyHash = sha256(new BorshWriter().u32(chunkHashes.length).fixed(chunkHeadersRoot).u32(0).toBytes());
    const chunkMask = chunks.map(() => true);
    const chunkEndorsements = chunks.map(() => (isGenesis ? [0] : [1]));
    const validatorProposals = chunks.flatMap((c) => c.validator_proposals);
    // The producer endorses the previous block at this height (nearcore Approval, signed raw).
    const approvals = isGenesis ? [] : [signatures?.approval ?? signBytes(endorsementMessage(prev.hashBytes, height))];

    const innerLite: InnerLite = {
      height,
      epochId,
      nextEpochId,
      prevStateRoot,
      outcomeRoot,
      timestampNs,
      nextBpHash: this.bpHash,
      blockMerkleRoot,
    };
    const rest = new BorshWriter()
      .fixed(blockBodyHash)
      .fixed(chunkReceiptsRoot)
      .fixed(chunkHeadersRoot)
      .fixed(chunkTxRoot)
      .fixed(ZERO_HASH) // challenges_root
      .fixed(randomValue)
      .fixed(validatorStakesBorsh(validatorProposals))
      .u32(chunkMask.length);
    for (const m of chunkMask) rest.bool(m);
    rest
      .u128(cfg.gasPrice)
      .u128(totalSupply)
      .u32(0) // challenges_result
      .fixed(lastFinal)
      .fixed(lastDsFinal)
      .u64(blockOrdinal)
      .u64(isGenesis ? 0 : prev.height)
      .u8(0) // epoch_sync_data_hash: None
      .u32(approvals.length);
    for (const a of approvals) rest.u8(1).u8(0).fixed(a);
    rest.u32(cfg.protocolVersion).u32(chunkEndorsements.length);
    for (const e of chunkEndorsements) rest.bytes(Uint8Array.from(e));
    const innerRestHash = sha256(rest.toBytes());
    const hashBytes = forkOf?.hash ?? blockHashFromParts(sha256(innerLiteBytes(innerLite)), innerRestHash, prevHash);
    const hash = formatCryptoHash(hashBytes);
    const blockSignature = isGenesis ? new Uint8Array(0) : (signatures?.block ?? signBytes(hashBytes));

    const header: BlockHeaderView = {
      height,
      prev_height: isGenesis ? 0 : prev.height,
      epoch_id: formatCryptoHash(epochId),
      next_epoch_id: formatCryptoHash(nextEpochId),
      hash,
      prev_hash: prevHashText,
      prev_state_root: formatCryptoHash(prevStateRoot),
      block_body_hash: formatCryptoHash(blockBodyHash),
      chunk_receipts_root: formatCryptoHash(chunkReceiptsRoot),
      chunk_headers_root: formatCryptoHash(chunkHeadersRoot),
      chunk_tx_root: formatCryptoHash(chunkTxRoot),
      outcome_root: formatCryptoHash(outcomeRoot),
      chunks_included: chunks.length,
      challenges_root: ZERO_HASH_BASE58,
      timestamp: Number(timestampNs),
      timestamp_nanosec: timestampNs.toString(),
      random_value: formatCryptoHash(randomValue),
      validator_proposals: validatorProposals,
      chunk_mask: chunkMask,
      gas_price: cfg.gasPrice.toString(),
      block_ordinal: blockOrdinal,
      rent_paid: "0",
      validator_reward: "0",
      total_supply: totalSupply.toString(),
      challenges_result: [],
      last_final_block: formatCryptoHash(lastFinal),
      last_ds_final_block: formatCryptoHash(lastDsFinal),
      next_bp_hash: formatCryptoHash(this.bpHash),
      block_merkle_root: formatCryptoHash(blockMerkleRoot),
      epoch_sync_data_hash: null,
      approvals: approvals.map((a) => `ed25519:${base58Encode(a)}`),
      signature: signatureText(blockSignature),
      latest_protocol_version: cfg.protocolVersion,
      chunk_endorsements: chunkEndorsements,
    };
    return new Block(height, hash, hashBytes, timestampNs, postState, totalSupply, outcomeRoots, {
      view: { author: cfg.author, header, chunks },
      innerRestHash,
      outcomeLeaves,
      signatures: isGenesis ? undefined : { approval: at(approvals, 0), block: blockSignature, chunks: chunkSignatures },
    });
  }
}
