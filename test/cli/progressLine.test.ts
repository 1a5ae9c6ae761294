import { describe, expect, it } from "vitest";
import { genesisProgressLabel } from "../../src/cli/genesisProgressLabel.js";
import { startProgress } from "../../src/cli/progressLine.js";

/** A stream that records what is written to it. */
function sink(isTTY: boolean): NodeJS.WriteStream & { text: string } {
  const stream = { isTTY, text: "", write: (s: string) => ((stream.text += s), true) };
  return stream as unknown as NodeJS.WriteStream & { text: string };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("progress lines", () => {
  it("on a terminal: one line redrawn in place with the latest label, cleared at the end", async () => {
    const out = sink(true);
    const progress = startProgress("loading", out, { everyMs: 20 });
    await sleep(150);
    progress.update("loading: step two");
    await sleep(60);
    const seconds = progress.done();
    expect(seconds).toBeGreaterThan(0.15);
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
    await sleep(30);
    expect(out.text).toBe("");
    progress.update("loading: halfway");
    await sleep(300);
    progress.done();
    const lines = out.text.split("\n").filter(Boolean);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.length).toBeLessThanOrEqual(4);
    for (const line of lines) expect(line).toMatch(/^loading: halfway … \d+\.\d s$/);
    expect(out.text).not.toContain("\r");
    const after = out.text;
    await sleep(150);
    expect(out.text).toBe(after); // done() stops the lines
  });

  it("says what a genesis load is doing", () => {
    expect(genesisProgressLabel({ phase: "records", bytesRead: 420, totalBytes: 1000, records: 4_200_000 })).toBe("reading records, 42% (4,200,000)");
    expect(genesisProgressLabel({ phase: "tries", entries: 5_000_000, totalEntries: 10_000_004 })).toBe("building the tries, 5,000,000 of 10,000,004 entries");
    expect(genesisProgressLabel({ phase: "nodes", buckets: 128, nodes: 9_876_543 })).toBe("writing trie nodes, 128 of 256 buckets (9,876,543 nodes)");
  });
});
