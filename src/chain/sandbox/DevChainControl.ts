import { ShardkitError } from "@shardkit/primitives/ShardkitError";
import type { Block } from "../blocks/Block.js";
import type { Producer } from "../client/Producer.js";
import type { StateView } from "../state/StateView.js";
import { patchState, type PatchableChain } from "./patchState.js";
import { at } from "../must.js";

/** Blocks one sandbox_fast_forward call may ask for. */
export const MAX_FAST_FORWARD_BLOCKS = 100_000;
/**
 * How long one event-loop turn of a fast-forward produces blocks before requests run again
 * (at least one block; the turn's blocks share one flush, made off the event loop while the
 * next turn runs): well inside the 50 ms a `status` may wait, with room for what runs between
 * turns (the indexers, a collection). Slowest `status` during 10,000 blocks on a quiet 2-core
 * machine: 20 ms turns 48-74 ms, 10 ms 44-78 ms, 5 ms 39-54 ms (about 5% fewer blocks a
 * second); a count (64 blocks) was 160-800 ms.
 */
const FAST_FORWARD_TURN_MS = 5;
/** The time one fast-forwarded block adds with `--block-time 0` (unless DevChainOptions say otherwise). */
const DEFAULT_FAST_FORWARD_STEP_MS = 1000;

export interface DevChainOptions {
  /**
   * The chain time each fast-forwarded block adds (default: the block time, or 1 s on demand).
   * nearcore's sandbox moves its clock by the mean of its min and max block production delays
   * per skipped height: `shardkit sandbox run` passes that.
   */
  readonly fastForwardStepMs?: number | undefined;
}

/**
 * What a fast-forward waits for between its turns (`final`: false) and before it answers
 * (`final`: true): an index following the chain bounds its lag with it. Undefined: no wait. A
 * rejected wait does not stop the fast-forward (a failed index reports itself).
 */
export type FastForwardGate = (final: boolean) => Promise<void> | undefined;

/** A second fast-forward while one runs (nearcore's message). */
export class FastForwardBusyError extends ShardkitError<"FAST_FORWARD_BUSY"> {
  override readonly name = "FastForwardBusyError";
  constructor() {
    super("FAST_FORWARD_BUSY", "Consecutive fast_forward requests cannot be made while a current one is going on.");
  }
}

/** A fast-forward stopped by a revert before it reached its height. */
export class FastForwardInterruptedError extends ShardkitError<"FAST_FORWARD_INTERRUPTED"> {
  override readonly name = "FastForwardInterruptedError";
  constructor(message: string) {
    super("FAST_FORWARD_INTERRUPTED", message);
  }
}

/** An id that is not (or no longer) a snapshot. */
export class UnknownSnapshotError extends ShardkitError<"UNKNOWN_SNAPSHOT"> {
  override readonly name = "UnknownSnapshotError";
  constructor(readonly snapshotId: string) {
    super("UNKNOWN_SNAPSHOT", `Snapshot ${snapshotId} is unknown (never taken, or consumed by a revert)`);
  }
}

/** What the controls drive: the chain's producer, and its blocks and state to check against. */
export interface ControlledChain {
  readonly producer: Producer;
  blockByHeight(height: number): Block | undefined;
  at(block: Block): StateView;
  shardOf(accountId: string): number;
}

interface Snapshot {
  readonly id: string;
  readonly height: number;
  readonly hash: string;
  readonly clockLeadMs: number;
}

/**
 * The dev-chain controls of one running chain: near-sandbox's state patch and fast-forward,
 * and Anvil-style snapshot/revert. Snapshots are the head's height, hash and clock lead;
 * reverting rewinds the chain (store included, see Producer.rewindTo) and tells `onRevert`
 * subscribers (the REST index rebuilds). Snapshots live in this object and nowhere else.
 */
export class DevChainControl {
  private readonly snapshots: Snapshot[] = [];
  private snapshotCounter = 0;
  private fastForwarding = false;
  /** Bumped by every revert, so a fast-forward in progress notices and stops. */
  private generation = 0;
  private readonly revertListeners = new Set<(head: Block) => void>();
  private readonly gates = new Set<FastForwardGate>();

  private readonly producer: Producer;

  constructor(
    private readonly chain: ControlledChain,
    private readonly options: DevChainOptions = {},
  ) {
    this.producer = chain.producer;
  }

  /** sandbox_patch_state: writes the records into the next block, produced now. */
  patchState(records: readonly unknown[]): Block {
    const { chain, producer } = this;
    const patchable: PatchableChain = {
      head: () => producer.head(),
      shardOf: (accountId) => chain.shardOf(accountId),
      stateAt: (block, shardId) => chain.at(block).shard(shardId),
      stage: (changes) => producer.stage(changes),
      produceBlock: () => producer.produceBlock(),
    };
    return patchState(patchable, records);
  }

  /**
   * sandbox_fast_forward: produces blocks until the head is `delta` higher, each one block time
   * ahead of the previous on the chain clock (the scheduler adds none meanwhile; a block a
   * library call produces counts). Yields to the event loop every FAST_FORWARD_TURN_MS.
   */
  async fastForward(delta: number): Promise<Block> {
    if (!Number.isSafeInteger(delta) || delta < 0 || delta > MAX_FAST_FORWARD_BLOCKS) {
      throw new RangeError(`delta_height must be an integer from 0 to ${MAX_FAST_FORWARD_BLOCKS}, got ${delta}`);
    }
    if (this.fastForwarding) throw new FastForwardBusyError();
    this.fastForwarding = true;
    // The scheduler adds no blocks between turns (an on-demand chain's finality blocks would be
    // stamped 1 ms apart, not a block time): the fast-forward's own blocks serve what it owes.
    const release = this.producer.holdScheduler();
    try {
      const generation = this.generation;
      const target = this.producer.head().height + delta;
      const stepMs = this.options.fastForwardStepMs ?? (this.producer.blockTimeMs > 0 ? this.producer.blockTimeMs : DEFAULT_FAST_FORWARD_STEP_MS);
      // Each turn's blocks are synced to disk while the next turn produces (at most two syncs in
      // flight); the answer waits for the last one.
      let syncing: Promise<unknown> | undefined;
      while (this.producer.head().height < target) {
        const synced = this.producer.withOneFlush(() => {
          const turnEnds = performance.now() + FAST_FORWARD_TURN_MS;
          do {
            this.producer.setClockLeadMs(this.producer.clockLeadMs + stepMs);
            this.producer.produceBlock();
          } while (this.producer.head().height < target && performance.now() < turnEnds);
        });
        synced.catch(() => undefined); // awaited below in the next turn (a failure also stops production at once)
        await syncing;
        syncing = synced;
        if (this.producer.head().height < target) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          await this.passGates(false);
        }
        if (generation !== this.generation) throw new FastForwardInterruptedError("a revert rewound the chain during the fast-forward");
      }
      await syncing;
      await this.passGates(true);
      return this.producer.head();
    } finally {
      release();
      this.fastForwarding = false;
    }
  }

  /** Makes every fast-forward wait for `gate` (see FastForwardGate); returns its removal. */
  gateFastForward(gate: FastForwardGate): () => void {
    this.gates.add(gate);
    return () => this.gates.delete(gate);
  }

  private async passGates(final: boolean): Promise<void> {
    for (const gate of [...this.gates]) await gate(final)?.catch(() => undefined);
  }

  /** shardkit_snapshot: remembers the head. */
  snapshot(): { id: string; block: Block } {
    const head = this.producer.head();
    const counter = ++this.snapshotCounter;
    const id = `0x${counter.toString(16)}`;
    this.snapshots.push({ id, height: head.height, hash: head.hash, clockLeadMs: this.producer.clockLeadMs });
    return { id, block: head };
  }

  /** shardkit_revert: the snapshot's block becomes the head; it and later snapshots are consumed. */
  revert(id: string): Block {
    const index = this.snapshots.findIndex((s) => s.id === id);
    if (index < 0) throw new UnknownSnapshotError(id);
    const snapshot = at(this.snapshots, index);
    if (this.chain.blockByHeight(snapshot.height)?.hash !== snapshot.hash) {
      // Nothing but a rewind below it could change the block, and that consumes the snapshot: a bug if reached.
      throw new Error(`snapshot ${id}'s block ${snapshot.height} ${snapshot.hash} is no longer in the chain`);
    }
    this.snapshots.splice(index);
    this.generation++;
    const head = this.producer.rewindTo(snapshot.height);
    this.producer.setClockLeadMs(snapshot.clockLeadMs);
    for (const listener of this.revertListeners) listener(head);
    return head;
  }

  /** Calls `listener` after each revert with the new head; returns an unsubscribe function. */
  onRevert(listener: (head: Block) => void): () => void {
    this.revertListeners.add(listener);
    return () => this.revertListeners.delete(listener);
  }
}
