/** What the scheduler drives: a chain that produces a block when asked. */
export interface SchedulableChain {
  /** Interval of timed production; 0 = blocks on demand. */
  readonly blockTimeMs: number;
  produceBlock(): unknown;
  /** True while another block would execute something (pooled transactions, receipts in flight). */
  hasPendingWork(): boolean;
}

/** Blocks an on-demand chain produces after one arrival while work keeps coming (a receipt loop must not spin forever). */
export const MAX_BLOCKS_PER_ARRIVAL = 64;
/** Blocks one waiter may ask for before the scheduler stops producing for it. */
export const MAX_BLOCKS_PER_DEMAND = 64;
/** Blocks on top of a block that make it final (final = head - 2, nearcore's doomslug finality). */
export const FINALITY_BLOCKS = 2;
/** Wait before producing again after a production that failed for a passing reason (a fork's upstream down). */
export const RETRY_AFTER_MS = 1000;

/** A production failure that may pass (marked `retryable`): the block is tried again later instead of stopping. */
function isRetryable(error: unknown): error is Error & { readonly retryable: true } {
  return error instanceof Error && "retryable" in error && error.retryable === true;
}

interface Demand {
  readonly satisfied: () => boolean;
  remaining: number;
}

/**
 * Decides when the chain produces blocks, so nothing outside the chain does.
 *
 * - Timed (`blockTimeMs > 0`): one block every interval while started.
 * - On demand (`blockTimeMs = 0`, `--block-time 0`): after a transaction arrives, blocks
 *   follow one per macrotask (so requests interleave) until the work it started is done (the
 *   pool is empty and no receipt is in flight), then FINALITY_BLOCKS more, so that the last
 *   block that did something (executed a transaction or receipt, or wrote a sandbox patch)
 *   is final, as on a chain that keeps producing. A waiter may also register a demand;
 *   blocks continue until it is satisfied or its budget is spent. Idle, nothing is produced.
 *
 * Before `start()` and after `stop()` nothing is produced (a library user calls
 * `produceBlock()` itself). A failing production stops the scheduler and goes to `onError`,
 * unless the error is `retryable` (a fork's upstream could not be read): then it goes to
 * `onRetry` and production is tried again after RETRY_AFTER_MS (the block's work waits).
 */
export class BlockScheduler {
  private started = false;
  private timer: NodeJS.Timeout | undefined;
  private stepQueued = false;
  private burst = 0;
  /** Blocks still to produce so that the last busy block becomes final. */
  private finalizing = 0;
  private readonly demands = new Set<Demand>();
  /** Holds in force (see hold): the scheduler produces nothing meanwhile. */
  private holds = 0;

  constructor(
    private readonly chain: SchedulableChain,
    private readonly onError: (error: unknown) => void,
    private readonly onRetry: (error: Error) => void = () => {},
  ) {}

  get running(): boolean {
    return this.started;
  }

  get onDemand(): boolean {
    return this.chain.blockTimeMs <= 0;
  }

  /** Starts production (no-op when already running). */
  start(): void {
    if (this.started) return;
    this.started = true;
    if (this.onDemand) {
      // Work left from before the start (a resumed pool is empty, but receipts may be in flight).
      this.burst = 0;
      this.queueStep();
    } else {
      this.armTimer();
    }
  }

  /** Stops production; safe to call repeatedly. Waiting demands stay registered but get no blocks. */
  stop(): void {
    this.started = false;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * Someone else produces blocks back to back for a while (a fast-forward): the scheduler adds
   * none in between, which would break their even block times. What it owes (a pooled
   * transaction, finality blocks, demands) is looked at again when the last hold is released;
   * the held producer's blocks count towards it. Returns the release function.
   */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      if (this.holds > 0 || !this.started) return;
      if (this.onDemand) this.queueStep();
      else if (this.timer === undefined) this.armTimer();
    };
  }

  /** The chain pooled a transaction: on demand, a block follows promptly. */
  transactionArrived(): void {
    if (!this.onDemand) return;
    this.burst = 0;
    this.queueStep();
  }

  /**
   * The chain produced a block (whoever asked for it: this scheduler, a sandbox patch, a
   * library call). On demand, a block that did something gets FINALITY_BLOCKS blocks on top.
   */
  blockProduced(busy: boolean): void {
    if (!this.onDemand) return;
    if (busy) {
      this.finalizing = FINALITY_BLOCKS;
      this.queueStep();
    } else if (this.finalizing > 0) {
      this.finalizing--;
    }
  }

  /**
   * Asks for blocks until `satisfied()` is true (checked before each block), at most
   * `maxBlocks` of them. On demand alone: a timed chain produces anyway. Returns a release
   * function (call it when the waiter gives up).
   */
  demand(satisfied: () => boolean, maxBlocks = MAX_BLOCKS_PER_DEMAND): () => void {
    if (!this.onDemand) return () => {};
    const entry: Demand = { satisfied, remaining: maxBlocks };
    this.demands.add(entry);
    this.queueStep();
    return () => this.demands.delete(entry);
  }

  private armTimer(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.started || this.holds > 0) return; // re-armed when the hold is released
      if (this.produce()) this.armTimer();
    }, this.chain.blockTimeMs);
    this.timer.unref(); // an idle chain alone must not keep the process alive
  }

  private queueStep(): void {
    if (this.stepQueued || !this.started) return;
    this.stepQueued = true;
    setImmediate(() => {
      this.stepQueued = false;
      this.step();
    });
  }

  /** One on-demand decision: produce a block if anything asks for one, then look again on the next turn. */
  private step(): void {
    if (!this.started || this.holds > 0) return; // queued again when the hold is released
    for (const d of this.demands) if (d.remaining <= 0 || d.satisfied()) this.demands.delete(d);
    const work = this.burst < MAX_BLOCKS_PER_ARRIVAL && this.chain.hasPendingWork();
    // A receipt loop at its burst limit gets no finality blocks either: each would be busy again.
    const finalize = this.finalizing > 0 && this.burst < MAX_BLOCKS_PER_ARRIVAL;
    if (!work && this.demands.size === 0 && !finalize) return;
    if (work) this.burst++;
    for (const d of this.demands) d.remaining--;
    if (this.produce()) this.queueStep();
  }

  private produce(): boolean {
    try {
      this.chain.produceBlock();
      return this.started; // a block listener may have stopped us
    } catch (error) {
      if (isRetryable(error)) {
        this.onRetry(error);
        this.retryLater();
        return false;
      }
      this.stop();
      this.onError(error);
      return false;
    }
  }

  private retryLater(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.started || this.holds > 0) return;
      if (this.onDemand) this.queueStep();
      else if (this.produce()) this.armTimer();
    }, RETRY_AFTER_MS);
    this.timer.unref();
  }
}
