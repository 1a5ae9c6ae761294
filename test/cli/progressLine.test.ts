import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { genesisProgressLabel } from "../../src/cli/genesisProgressLabel.js";
import { startProgress } from "../../src/cli/progressLine.js";

/** A stream that records what is written to it. */
function sink(isTTY: boolean): NodeJS.WriteStream & { text: string } {
  const stream = { isTTY, text: "", write: (s: string) => ((stream.text += s), true) };
  return stream as unknown as NodeJS.WriteStream & { text: string };
}

// Time moves only when a test moves it: the fake clock drives performance.now() and setInterval.
beforeEach(() => vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "performance"] }));
afterEach(() => vi.useRealTimers());
const advance = (ms: number) => void vi.advanceTimersByTime(ms);

describe("progress lines", () => {
  it("on a terminal: one line redrawn in place with the latest label, cleared at the end", async () => {
    const out = sink(true);
    const progress = startProgress("loading", out, { everyMs: 20 });
    advance(150);
    progress.update("loading: step two");
    advance(60);
    const seconds = progress.done();
    expect(seconds).toBeCloseTo(0.21, 6);
    expect(out.text.startsWith("\r\x1b[2Kloading … 0.0 s")).toBe(true);
    expect(out.text).toMatch(/\r\x1b\[2Kloading: step two … \d+\.\d s/);
    expect(out.text.endsWith("\r\x1b[2K")).toBe(true);
    expect(out.text).not.toContain("\n");
  });

  it("elsewhere: nothing for quick work, then plain lines at the set pace, never a carriage return", async () => {
    const quick = sink(false);
    startProgress("quick", quick).done();
    expect(quick.text).toBe("");

    const out = sink(false);
    const progress = startProgress("loading", out, { everyMs: 10, plainAfterMs: 50, plainEveryMs: 100 });
    advance(30);
    expect(out.text).toBe("");
    progress.update("loading: halfway");
    advance(300);
    progress.done();
    const lines = out.text.split("\n").filter(Boolean);
    // At 50 ms (plainAfterMs), then every 100 ms: at 50, 150 and 250 of the 330.
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).toMatch(/^loading: halfway … \d+\.\d s$/);
    expect(out.text).not.toContain("\r");
    const after = out.text;
    advance(150);
    expect(out.text).toBe(after); // done() stops the lines
  });

  it("says what a genesis load is doing", () => {
    expect(genesisProgressLabel({ phase: "records", bytesRead: 420, totalBytes: 1000, records: 4_200_000 })).toBe("reading records, 42% (4,200,000)");
    expect(genesisProgressLabel({ phase: "tries", entries: 5_000_000, totalEntries: 10_000_004 })).toBe("building the tries, 5,000,000 of 10,000,004 entries");
    expect(genesisProgressLabel({ phase: "nodes", buckets: 128, nodes: 9_876_543 })).toBe("writing trie nodes, 128 of 256 buckets (9,876,543 nodes)");
  });
});
