import { base58Encode } from "@shardkit/primitives/base58";
import { formatCryptoHash, ZERO_HASH_BASE58, type CryptoHash } from "../primitives/cryptoHash.js";
import { outcomeHash, toExecutionOutcomeView, type ExecutionOutcomeWithIdView, type MerklePathItem } from "../runtime/executionOutcome.js";
import type { OutcomeRecord } from "../runtime/transactionStatus.js";
import type { ShardLayout } from "../shards/ShardLayout.js";
import type { Block } from "./Block.js";
import type { BlockProducer } from "./BlockProducer.js";
import { innerHash, innerLiteHash } from "./blockHeaderHash.js";
import type { ValidatorStakeView } from "./blockView.js";
import { LightClientError } from "./LightClientError.js";
import { merklize, pathFromLevels, treeLevels, type MerklePathStep } from "./merkle.js";
import { base58Decode } from "@shardkit/primitives/base58";
import { at } from "../must.js";

/** nearcore `BlockHeaderInnerLiteView`. */
export interface BlockHeaderInnerLiteView {
  height: number;
  epoch_id: string;
  next_epoch_id: string;
  prev_state_root: string;
  outcome_root: string;
  /** Unix ns as a JSON number (legacy, inexact); `timestamp_nanosec` is exact. */
  timestamp: number;
  timestamp_nanosec: string;
  next_bp_hash: string;
  block_merkle_root: string;
}

/** nearcore `LightClientBlockLiteView`: enough of a header to recompute its hash. */
export interface LightClientBlockLiteView {
  prev_block_hash: string;
  inner_rest_hash: string;
  inner_lite: BlockHeaderInnerLiteView;
}

/** nearcore `LightClientBlockView` (`next_light_client_block`). */
export interface LightClientBlockView {
  prev_block_hash: string;
  next_block_inner_hash: string;
  inner_lite: BlockHeaderInnerLiteView;
  inner_rest_hash: string;
  next_bps: ValidatorStakeView[] | null;
  approvals_after_next: (string | null)[];
}

export interface LightClientBlockProof {
  block_header_lite: LightClientBlockLiteView;
  block_proof: MerklePathItem[];
}

export interface LightClientExecutionProof extends LightClientBlockProof {
  outcome_proof: ExecutionOutcomeWithIdView;
  outcome_root_proof: MerklePathItem[];
}

/** What the light-client views read from the chain. */
export interface LightClientSource {
  readonly genesisHeight: number;
  readonly layout: ShardLayout;
  readonly producer: BlockProducer;
  head(): Block;
  /** Height of head.last_final_block. */
  finalHeight(): number;
  blockByHeight(height: number): Block | undefined;
  blockByHash(hash: string): Block | undefined;
  outcome(id: string): OutcomeRecord | undefined;
}

export function toPathItems(path: readonly MerklePathStep[]): MerklePathItem[] {
  return path.map((s) => ({ hash: formatCryptoHash(s.hash), direction: s.direction }));
}

export function innerLiteView(block: Block): BlockHeaderInnerLiteView {
  const h = block.view.header;
  return {
    height: h.height,
    epoch_id: h.epoch_id,
    next_epoch_id: h.next_epoch_id,
    prev_state_root: h.prev_state_root,
    outcome_root: h.outcome_root,
    timestamp: h.timestamp,
    timestamp_nanosec: h.timestamp_nanosec,
    next_bp_hash: h.next_bp_hash,
    block_merkle_root: h.block_merkle_root,
  };
}

export function lightClientBlockLite(block: Block): LightClientBlockLiteView {
  return { prev_block_hash: block.view.header.prev_hash, inner_rest_hash: formatCryptoHash(block.innerRestHash), inner_lite: innerLiteView(block) };
}

function innerLiteHashOf(block: Block): CryptoHash {
  const h = block.view.header;
  return innerLiteHash({
    height: h.height,
    epochId: base58Decode(h.epoch_id),
    nextEpochId: base58Decode(h.next_epoch_id),
    prevStateRoot: base58Decode(h.prev_state_root),
    outcomeRoot: base58Decode(h.outcome_root),
    timestampNs: block.timestampNs,
    nextBpHash: base58Decode(h.next_bp_hash),
    blockMerkleRoot: base58Decode(h.block_merkle_root),
  });
}

/** nearcore's message for a header missing from the store. */
const missingHeader = (hash: string) => new LightClientError({ kind: "UnknownBlock", message: `BLOCK HEADER: ${hash}` });

/**
 * The light-client RPC views over the chain, after nearcore's view client (GetBlockProof,
 * GetExecutionOutcome, GetNextLightClientBlock) and chain.rs `create_light_client_block`.
 */
export class LightClientViews {
  /**
   * Outcome trees of recently asked chunks (about two hashes per outcome), least recently
   * used first: a tx status asks for every outcome's path, mostly in recent blocks, and
   * rebuilding a large chunk's tree per outcome would cost O(n) hashes each time.
   */
  private readonly trees = new Map<readonly CryptoHash[], CryptoHash[][]>();
  private static readonly TREE_CACHE = 64;

  constructor(private readonly src: LightClientSource) {}

  private header(hash: string): Block {
    const block = this.src.blockByHash(hash);
    if (block === undefined) throw missingHeader(hash);
    return block;
  }

  private byHeight(height: number): Block {
    const block = this.src.blockByHeight(height);
    if (block === undefined) throw new LightClientError({ kind: "UnknownBlock", message: `BLOCK HEIGHT: ${height}` });
    return block;
  }

  /** The merkle path of an outcome inside its chunk's outcome root ([] when the outcome is unknown to the block). */
  outcomePath(record: OutcomeRecord): MerklePathItem[] {
    const block = this.src.blockByHeight(record.blockHeight);
    if (block === undefined) return [];
    const leaf = outcomeHash(record.outcome);
    const home = this.src.layout.shardIndexOf(record.outcome.executorId);
    const order = [home, ...block.outcomeLeaves.keys()].filter((s, i) => i === 0 || s !== home);
    for (const shard of order) {
      const leaves = at(block.outcomeLeaves, shard);
      const index = leaves.findIndex((l) => l.length === leaf.length && l.every((b, i) => b === leaf[i]));
      if (index < 0) continue;
      let levels = this.trees.get(leaves);
      if (levels === undefined) {
        levels = treeLevels(leaves);
        if (this.trees.size >= LightClientViews.TREE_CACHE) this.trees.delete(this.trees.keys().next().value!);
      } else {
        this.trees.delete(leaves);
      }
      this.trees.set(leaves, levels);
      return toPathItems(pathFromLevels(levels, index));
    }
    return [];
  }

  /**
   * nearcore `check_blocks_final_and_canonical`: both blocks at or below the head's last
   * final block (every block here is canonical: one producer, no forks).
   */
  private checkFinal(blocks: readonly Block[]): void {
    const finalHeight = this.src.finalHeight();
    for (const b of blocks) {
      if (b.height > finalHeight) throw new LightClientError({ kind: "Internal", message: `Other Error: ${b.hash} not on current chain` });
    }
  }

  /** `EXPERIMENTAL_light_client_block_proof`: the lite header of `blockHash` and its path to the head's block_merkle_root. */
  blockProof(blockHash: string, headHash: string): LightClientBlockProof {
    const block = this.header(blockHash);
    const head = this.header(headHash);
    this.checkFinal([block, head]);
    const g = this.src.genesisHeight;
    const leaf = block.height - g;
    const size = head.height - g; // head's tree holds every block before it
    let path: MerklePathStep[];
    if (leaf >= size) {
      if (block.hash !== head.hash) {
        throw new LightClientError({ kind: "Internal", message: `Other Error: block ${block.hash} is ahead of head block ${head.hash}` });
      }
      path = []; // nearcore's special case: the head itself gets an empty path
    } else {
      path = this.src.producer.blockProof(leaf, size);
    }
    return { block_header_lite: lightClientBlockLite(block), block_proof: toPathItems(path) };
  }

  /**
   * `light_client_proof`: the outcome with its path to its chunk's outcome root, that root's
   * path to the outcome_root of the block that carries it (the next block: chunk headers hold
   * the previous chunk's outcome root), and that block's path to the head.
   */
  executionProof(id: string, accountId: string, headHash: string): LightClientExecutionProof {
    const record = this.src.outcome(id);
    if (record === undefined) throw new LightClientError({ kind: "UnknownTransactionOrReceipt", id });
    // Every block has a new chunk for every shard, so the outcome root is in the next block.
    const carrier = this.src.blockByHeight(record.blockHeight + 1);
    if (carrier === undefined) throw new LightClientError({ kind: "NotConfirmed", id });
    const shard = this.src.layout.shardIndexOf(accountId);
    const chunkRoots = carrier.view.chunks.map((c) => base58Decode(c.outcome_root));
    const outcomeRootProof = at(merklize(chunkRoots).paths, shard);
    const blockProof = this.blockProof(carrier.hash, headHash);
    return {
      outcome_proof: {
        proof: this.outcomePath(record),
        block_hash: carrier.hash,
        id: base58Encode(record.outcome.id),
        outcome: toExecutionOutcomeView(record.outcome),
      },
      outcome_root_proof: toPathItems(outcomeRootProof),
      block_header_lite: blockProof.block_header_lite,
      block_proof: blockProof.block_proof,
    };
  }

  /** nearcore `create_light_client_block`: the view of the last final block of `header`, kept inside its epoch. */
  private createLightClientBlock(header: Block): LightClientBlockView {
    const ret = this.header(header.view.header.last_final_block);
    const twoAhead = this.byHeight(ret.height + 2);
    let final = ret;
    if (twoAhead.view.header.epoch_id !== ret.view.header.epoch_id) {
      const oneAhead = this.byHeight(ret.height + 1);
      final =
        oneAhead.view.header.epoch_id !== ret.view.header.epoch_id
          ? this.header(ret.view.header.last_final_block)
          : this.header(oneAhead.view.header.last_final_block);
    }
    const next = this.byHeight(final.height + 1);
    const afterNext = this.byHeight(final.height + 2);
    return {
      prev_block_hash: final.view.header.prev_hash,
      next_block_inner_hash: formatCryptoHash(innerHash(innerLiteHashOf(next), next.innerRestHash)),
      inner_lite: innerLiteView(final),
      inner_rest_hash: formatCryptoHash(final.innerRestHash),
      // One producer with a fixed stake: every epoch's producers are the same list.
      next_bps: [...this.src.producer.blockProducers],
      approvals_after_next: [...afterNext.view.header.approvals],
    };
  }

  /**
   * `next_light_client_block` (nearcore view client): while the light client's last block is
   * in the head's epoch or the one before it, the light-client block of the head's last final
   * block if it is newer; otherwise the block saved when the epoch after the last block's
   * ended (built from that epoch's last block, as nearcore saves it). Undefined = nothing newer.
   */
  nextLightClientBlock(lastHash: string): LightClientBlockView | undefined {
    const last = this.header(lastHash);
    const head = this.src.head();
    const lastEpoch = last.view.header.epoch_id;
    const lastNextEpoch = last.view.header.next_epoch_id;
    const headEpoch = head.view.header.epoch_id;
    if (lastEpoch === headEpoch || lastNextEpoch === headEpoch) {
      const view = this.createLightClientBlock(head);
      return view.inner_lite.height <= last.height ? undefined : view;
    }
    // The epoch named by last.next_epoch_id (the genesis names epoch 0 twice, as in nearcore).
    const p = this.src.producer;
    const nextEpoch = lastNextEpoch === ZERO_HASH_BASE58 ? 0 : p.epochIndexOf(last.height) + 1;
    const lastOfEpoch = this.src.blockByHeight(p.lastBlockOfEpoch(nextEpoch));
    const firstOfNext = lastOfEpoch === undefined ? undefined : this.src.blockByHeight(lastOfEpoch.height + 1);
    if (lastOfEpoch === undefined || firstOfNext === undefined) return undefined;
    if (lastOfEpoch.view.header.last_final_block === ZERO_HASH_BASE58) return undefined;
    return this.createLightClientBlock(lastOfEpoch);
  }
}
