import { performance } from "node:perf_hooks";
import { startProgress, type Progress } from "./progressLine.js";

/** What one index's catch-up did, once it is done. */
export interface CatchUpDone {
  readonly blocks: number;
  readonly seconds: number;
}

/**
 * One progress line for the indexes that catch up with a resumed chain (the REST index, the
 * transaction history), which may run at the same time: "shardkit: indexing blocks for the
 * REST API, 5000 of 90000; for the transaction history, 3000 of 90000". Each index reports
 * (indexed, target) as its indexer's onCatchUp does; the line goes when every part is done.
 */
export class CatchUpLine {
  private line: Progress | undefined;
  private readonly parts = new Map<string, { readonly from: number; readonly startedMs: number; label: string }>();

  /** `beforeFirst` runs before the line is first drawn (an earlier line to finish). */
  constructor(private readonly beforeFirst: () => void = () => {}) {}

  /** A report of the index `name`; returns what it did once `indexed` reaches `target`. */
  report(name: string, indexed: number, target: number): CatchUpDone | undefined {
    let part = this.parts.get(name);
    if (part === undefined) {
      if (indexed >= target) return undefined;
      part = { from: indexed, startedMs: performance.now(), label: "" };
      this.parts.set(name, part);
    }
    if (indexed >= target) {
      this.parts.delete(name);
      const done = { blocks: target - part.from, seconds: (performance.now() - part.startedMs) / 1000 };
      if (this.parts.size === 0) {
        this.line?.done();
        this.line = undefined;
      } else this.line?.update(this.label());
      return done;
    }
    part.label = `${name}, ${indexed} of ${target}`;
    if (this.line === undefined) {
      this.beforeFirst();
      this.line = startProgress(this.label());
    } else this.line.update(this.label());
    return undefined;
  }

  private label(): string {
    return `shardkit: indexing blocks for ${[...this.parts.values()].map((p) => p.label).join("; for ")}`;
  }
}
