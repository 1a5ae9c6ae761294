/** A catch-up is reported when it starts, every this many blocks, and when done. */
const REPORT_EVERY = 1000;

/**
 * When a history index reports catching up with the chain (HistoryIndexerOptions.onCatchUp):
 * a backlog found at its first step after start, of more than `threshold` blocks (a data dir
 * without its index, or behind it), is reported when it starts, every 1,000 blocks, and when
 * done. A backlog that builds up later (a fast-forward) is routine, not reported. Shared by
 * the in-thread HistoryIndexer and the WorkerHistoryIndexer, which differ only in where their
 * indexed height comes from.
 */
export class CatchUpProgress {
  /** Until the first step: a backlog found then is a catch-up to report. */
  private starting = true;
  /** A catch-up being reported: the height last reported. */
  private catchingUp: { reportedAt: number } | undefined;

  constructor(
    private readonly report: ((indexed: number, target: number) => void) | undefined,
    private readonly threshold: number,
  ) {}

  /** A step of the running index: `indexed` is its height (genesis - 1 when empty), `target` the chain's head. */
  step(indexed: number, target: number): void {
    const report = this.report;
    if (report === undefined) return;
    if (this.catchingUp === undefined) {
      if (!this.starting) return;
      this.starting = false;
      if (target - indexed <= this.threshold) return;
      this.catchingUp = { reportedAt: indexed };
      report(indexed, target);
    } else if (indexed >= target) {
      this.catchingUp = undefined;
      report(indexed, indexed);
    } else if (indexed - this.catchingUp.reportedAt >= REPORT_EVERY) {
      this.catchingUp.reportedAt = indexed;
      report(indexed, target);
    }
  }
}
