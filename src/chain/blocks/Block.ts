import type { CryptoHash } from "../primitives/cryptoHash.js";
import type { StateSnapshot } from "../store/stateStore.js";
import type { BlockView } from "./blockView.js";

/** What a block's successor is built from: its parent's facts, as the parent's record keeps them. */
export interface BlockParent {
  readonly height: number;
  readonly hashBytes: Uint8Array;
  readonly totalSupply: bigint;
  /** By shard index: the outcome root of the parent's chunk (the child's chunk `outcome_root`). */
  readonly outcomeRoots: readonly CryptoHash[];
  /** By shard index: the parent's post-state root (the child's chunk `prev_state_root`). */
  readonly stateRoots: readonly CryptoHash[];
}

/**
 * The ed25519 signatures of a produced block (deterministic, but 6 signings cost more than the
 * rest of a block): kept in its record, so rebuilding a stored block only hashes.
 */
export interface BlockSignatures {
  /** The producer's endorsement of the previous block (in the header's approvals and its hash). */
  readonly approval: Uint8Array;
  /** Over the block hash. */
  readonly block: Uint8Array;
  /** By shard index, over the chunk hash. */
  readonly chunks: readonly Uint8Array[];
}

/** What only a rebuild of the header gives: the JSON view, the inner-rest hash, the outcome leaves, the signatures. */
export interface BlockHeaderParts {
  readonly view: BlockView;
  readonly innerRestHash: CryptoHash;
  readonly outcomeLeaves: readonly (readonly CryptoHash[])[];
  readonly signatures: BlockSignatures | undefined;
}

/**
 * A produced block. `view` is the nearcore-shaped JSON (shared, do not mutate);
 * `postState[i]` is shard i's state after the block's chunks were applied, which is what
 * reads "at this block" see. A block read back from the store knows its facts from its
 * record and rebuilds its header parts (view, inner-rest hash, outcome leaves) on first use:
 * state reads and the REST indexer never pay for a header they do not read.
 */
export class Block implements BlockParent {
  private parts: BlockHeaderParts | (() => BlockHeaderParts);

  constructor(
    readonly height: number,
    /** base58 block hash */
    readonly hash: string,
    readonly hashBytes: Uint8Array,
    /** Exact block time in Unix nanoseconds. */
    readonly timestampNs: bigint,
    /** By shard index (shard order). */
    readonly postState: readonly StateSnapshot[],
    /** Total supply after this block (genesis supply minus every token burnt so far). */
    readonly totalSupply: bigint,
    /** By shard index: nearcore merkle root over `outcomeLeaves[i]` (already hashed leaves). */
    readonly outcomeRoots: readonly CryptoHash[],
    /** The header parts, or how to rebuild them (called once, on first use). */
    parts: BlockHeaderParts | (() => BlockHeaderParts),
  ) {
    this.parts = parts;
  }

  private built(): BlockHeaderParts {
    if (typeof this.parts === "function") this.parts = this.parts();
    return this.parts;
  }

  get view(): BlockView {
    return this.built().view;
  }

  /** sha256 of the header's borsh inner_rest (the half of the header light clients only see hashed). */
  get innerRestHash(): CryptoHash {
    return this.built().innerRestHash;
  }

  /**
   * By shard index: the outcome leaves of the chunk this block applied (transactions then
   * receipts, in execution order). Their root is the next block's chunk `outcome_root`, as
   * nearcore's chunk headers carry the outcome root of the previous chunk.
   */
  get outcomeLeaves(): readonly (readonly CryptoHash[])[] {
    return this.built().outcomeLeaves;
  }

  /** The producer's signatures (none for the genesis). */
  get signatures(): BlockSignatures | undefined {
    return this.built().signatures;
  }

  get stateRoots(): readonly CryptoHash[] {
    return this.postState.map((s) => s.rootHash);
  }
}
