export interface Progress {
  /**
   * A new label: redrawn at once (synchronous work leaves no turn for the timer) unless the
   * line was drawn in the last 100 ms; `atOnce` redraws regardless (a new phase of the work).
   */
  update(label: string, atOnce?: boolean): void;
  /** Clears the progress line and returns the elapsed seconds. */
  done(): number;
}

export interface ProgressOptions {
  /** Redraw interval on a terminal (default 250 ms). */
  readonly everyMs?: number;
  /** Elsewhere (a pipe, a file, a log collector): the first plain line after this long (default 5 s), so quick work prints none. */
  readonly plainAfterMs?: number;
  /** Elsewhere: one plain line at most this often (default 10 s). */
  readonly plainEveryMs?: number;
}

const REDRAW_AT_ONCE_MS = 100;

/**
 * A self-updating "label … 2.4 s" line for long work on a terminal. Elsewhere no carriage
 * returns go into the logs: work that takes longer than `plainAfterMs` gets a plain
 * "label … 12.0 s" line every `plainEveryMs`. It updates while the event loop is free, which
 * streamed work (the genesis file is read in chunks) leaves it. Time is the global
 * `performance.now()` and `setInterval` (tests fake both).
 */
export function startProgress(label: string, stream: NodeJS.WriteStream = process.stderr, options: ProgressOptions = {}): Progress {
  const { everyMs = 250, plainAfterMs = 5_000, plainEveryMs = 10_000 } = options;
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  const text = () => `${label} … ${elapsed().toFixed(1)} s`;
  if (!stream.isTTY) {
    let lastLine = -Infinity;
    const maybeLine = () => {
      const now = performance.now();
      if (now - started < plainAfterMs || now - lastLine < plainEveryMs) return;
      lastLine = now;
      stream.write(`${text()}\n`);
    };
    const timer = setInterval(maybeLine, Math.min(everyMs, plainEveryMs));
    timer.unref();
    return {
      update: (next) => {
        label = next;
        maybeLine();
      },
      done: () => {
        clearInterval(timer);
        return elapsed();
      },
    };
  }
  let drawn = 0;
  const draw = () => {
    drawn = performance.now();
    stream.write(`\r\x1b[2K${text()}`);
  };
  draw();
  const timer = setInterval(draw, everyMs);
  return {
    update: (next, atOnce = false) => {
      label = next;
      if (atOnce || performance.now() - drawn >= REDRAW_AT_ONCE_MS) draw();
    },
    done: () => {
      clearInterval(timer);
      stream.write("\r\x1b[2K");
      return elapsed();
    },
  };
}
