import { describe, expect, it } from "vitest";
import { CatchUpProgress } from "../../../src/indexer/history/CatchUpProgress.js";

describe("CatchUpProgress", () => {
  const run = (steps: [indexed: number, target: number][]) => {
    const reports: [number, number][] = [];
    const progress = new CatchUpProgress((indexed, target) => reports.push([indexed, target]), 64);
    for (const [indexed, target] of steps) progress.step(indexed, target);
    return reports;
  };

  it("reports a backlog found at the first step: its start, every 1,000 blocks, its end", () => {
    expect(run([[0, 2500], [64, 2500], [1000, 2500], [1064, 2600], [2000, 2600], [2600, 2600], [2600, 2700]])).toEqual([
      [0, 2500],
      [1000, 2500],
      [2000, 2600],
      [2600, 2600],
    ]);
  });

  it("reports nothing for a backlog of one batch at start, nor for one that builds up later", () => {
    expect(run([[10, 74], [74, 74], [74, 5000], [100, 5000], [5000, 5000]])).toEqual([]);
  });

  it("reports nothing without a listener", () => {
    const progress = new CatchUpProgress(undefined, 64);
    expect(() => progress.step(0, 5000)).not.toThrow();
  });
});
