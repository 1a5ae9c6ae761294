import { performance } from "node:perf_hooks";

export interface Progress {
  /** Redraws the line with a new label at once (synchronous work leaves no turn for the timer). */
  update(label: string): void;
  /** Clears the progress line and returns the elapsed seconds. */
  done(): number;
}

/**
 * A self-updating "label … 2.4 s" line for long work, on a terminal only (a pipe or a file gets
 * nothing: no carriage returns in logs). It updates while the event loop is free, which streamed
 * work (the genesis file is read in chunks) leaves it.
 */
export function startProgress(label: string, stream: NodeJS.WriteStream = process.stderr, everyMs = 250): Progress {
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  if (!stream.isTTY) return { update: () => {}, done: elapsed };
  const draw = () => stream.write(`\r\x1b[2K${label} … ${elapsed().toFixed(1)} s`);
  draw();
  const timer = setInterval(draw, everyMs);
  return {
    update: (next) => {
      label = next;
      draw();
    },
    done: () => {
      clearInterval(timer);
      stream.write("\r\x1b[2K");
      return elapsed();
    },
  };
}
