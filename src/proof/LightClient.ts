import type { LightClientBlockLiteView, LightClientBlockView, LightClientExecutionProofView, ValidatorStakeView } from "./lightClientTypes.js";
import { blockHashOfLite } from "./lightClientHashes.js";
import { base58Encode } from "@shardkit/primitives/base58";
import { asInvalidInput, LightClientProofError } from "./LightClientProofError.js";
import { verifyLightClientBlock } from "./verifyLightClientBlock.js";
import { verifyOutcomeProof } from "./verifyOutcomeProof.js";

export interface LightClientOptions {
  /** A trusted head to start from (e.g. the genesis' lite header, checked against its known hash). */
  readonly head: LightClientBlockLiteView;
  /** Block producers of the head's epoch (and of its next epoch, when already known), by epoch id. */
  readonly blockProducers: ReadonlyMap<string, readonly ValidatorStakeView[]>;
}

/** Fetches `next_light_client_block` for the given last block hash; undefined when the node has nothing newer (`{}`). */
export type NextLightClientBlock = (lastBlockHash: string) => Promise<LightClientBlockView | undefined>;

/**
 * A NEAR light client: a verified head plus the block producers of the epochs it can check.
 * `sync` walks `next_light_client_block` from the head, verifying each block's approvals and
 * next_bps before moving; `verifyOutcome` checks a `light_client_proof` against the head.
 */
export class LightClient {
  private current: LightClientBlockLiteView;
  private currentHash: string;
  private readonly producers: Map<string, readonly ValidatorStakeView[]>;

  constructor(options: LightClientOptions) {
    this.current = options.head;
    this.currentHash = asInvalidInput(() => base58Encode(blockHashOfLite(options.head)));
    this.producers = new Map(options.blockProducers);
  }

  get head(): LightClientBlockLiteView {
    return this.current;
  }

  /** Hash of the head (base58), the `light_client_head` to ask proofs against. */
  get headHash(): string {
    return this.currentHash;
  }

  /** Verifies `block` against the head and makes it the head. Throws LightClientProofError. */
  apply(block: LightClientBlockView): void {
    const epoch = block.inner_lite.epoch_id;
    if (epoch !== this.current.inner_lite.epoch_id && epoch !== this.current.inner_lite.next_epoch_id) {
      throw new LightClientProofError("WRONG_EPOCH", `block epoch ${epoch} is neither the head's epoch nor the next one`);
    }
    const blockProducers = this.producers.get(epoch);
    if (blockProducers === undefined) throw new LightClientProofError("UNKNOWN_EPOCH", `no block producers known for epoch ${epoch}`);
    const { head, hash } = verifyLightClientBlock({ last: this.current, blockProducers, block });
    if (block.next_bps !== undefined && block.next_bps !== null) this.producers.set(block.inner_lite.next_epoch_id, [...block.next_bps]);
    this.current = head;
    this.currentHash = hash;
  }

  /** Applies light-client blocks until the node has nothing newer; returns how many were applied. */
  async sync(next: NextLightClientBlock, maxSteps = 100_000): Promise<number> {
    let steps = 0;
    for (; steps < maxSteps; steps++) {
      const block = await next(this.currentHash);
      if (block === undefined) break;
      this.apply(block);
    }
    return steps;
  }

  /** Verifies a `light_client_proof` asked with `light_client_head` = this head. */
  verifyOutcome(proof: LightClientExecutionProofView): { blockHash: string; chunkOutcomeRoot: string } {
    return verifyOutcomeProof({ proof, blockMerkleRoot: this.current.inner_lite.block_merkle_root });
  }
}
