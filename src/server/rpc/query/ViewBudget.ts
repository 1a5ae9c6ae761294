import type { ViewLimits } from "../../../chain/vm/ViewLimits.js";
import { TimeoutError } from "../../errors.js";

export const DEFAULT_VIEW_TIMEOUT_MS = 1_000;

/**
 * The share of the (single) JS thread that `query` call_function may take. View calls run
 * synchronously, so runaway contract code holds every listener, block production and the
 * indexer while it runs. Each call gets `timeoutMs` (then fails like a view out of gas), and
 * the calls of one window may run `busyMsPerWindow` in total (by default half of a window of
 * four timeouts); once that is spent, further calls are refused with TIMEOUT_ERROR at once
 * until the window ends. Fixed windows keep it O(1): a burst across a boundary may use two.
 */
export class ViewBudget {
  private windowStart = 0;
  private spentMs = 0;
  readonly limits: ViewLimits;

  constructor(
    readonly timeoutMs: number = DEFAULT_VIEW_TIMEOUT_MS,
    private readonly busyMsPerWindow: number = 2 * timeoutMs,
    private readonly windowMs: number = 4 * timeoutMs,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.limits = { timeLimitMs: timeoutMs };
  }

  /** Runs one view call within the budget, or throws TimeoutError when the window's budget is spent. */
  run<T>(call: (limits: ViewLimits) => T): T {
    const started = this.now();
    if (started - this.windowStart >= this.windowMs) {
      this.windowStart = started;
      this.spentMs = 0;
    }
    if (this.spentMs >= this.busyMsPerWindow) throw new TimeoutError();
    try {
      return call(this.limits);
    } finally {
      this.spentMs += this.now() - started;
    }
  }
}
