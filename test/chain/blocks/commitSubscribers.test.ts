import { afterEach, describe, expect, it } from "vitest";
import type { BlockCommit } from "../../../src/chain/blockCommit.js";
import type { Chain } from "../../../src/chain/node.js";
import { createLogger } from "../../../src/server/log/Logger.js";
import { startService } from "../../../src/server/startService.js";
import { openChain } from "../runtime/helpers.js";

const chains: Chain[] = [];
afterEach(async () => {
  for (const chain of chains.splice(0)) await chain.close();
});

async function chain(opts: Parameters<typeof openChain>[0] = {}): Promise<Chain> {
  const c = await openChain({ blockTimeMs: 0, ...opts });
  chains.push(c);
  return c;
}

async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Resolves once `predicate()` holds, checking on every turn (the test's timeout bounds it). */
async function until(predicate: () => boolean): Promise<void> {
  while (!predicate()) await new Promise<void>((resolve) => setImmediate(resolve));
}

describe("block-commit subscribers", () => {
  it("production never runs a subscriber: commits arrive on later turns, in order", async () => {
    const c = await chain();
    const seen: number[] = [];
    c.onBlockCommit((commit) => void seen.push(commit.block.height), "recorder");
    for (let i = 0; i < 5; i++) c.produceBlock();
    expect(seen).toEqual([]); // five blocks produced, no subscriber code ran yet
    expect(c.commitBacklog("recorder")).toBe(5);
    await until(() => seen.length === 5);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it("a subscriber awaiting a long time holds back neither timed production nor other subscribers", async () => {
    const c = await chain({ blockTimeMs: 5 });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow: number[] = [];
    const fast: number[] = [];
    c.onBlockCommit(async (commit) => {
      slow.push(commit.block.height);
      await gate;
    }, "slow");
    c.onBlockCommit((commit) => void fast.push(commit.block.height), "fast");
    c.start();
    await until(() => fast.length >= 10);
    // Ten blocks produced and delivered elsewhere while the slow one is still on its first.
    expect(c.head().height).toBeGreaterThanOrEqual(10);
    expect(slow).toEqual([1]);
    expect(c.commitBacklog("slow")).toBeGreaterThanOrEqual(9);
    c.stop();
    release();
    const head = c.head().height;
    await until(() => slow.length === head);
    expect(slow).toEqual(Array.from({ length: head }, (_, i) => i + 1));
  });

  it("a throwing or rejecting subscriber is reported by name and keeps receiving; others are unaffected", async () => {
    const c = await chain();
    const reports: { subscriber: string; height: number; error: string }[] = [];
    c.onSubscriberFailure((subscriber, height, error) => reports.push({ subscriber, height, error: String(error) }));
    const others: number[] = [];
    const thrower: number[] = [];
    c.onBlockCommit((commit: BlockCommit) => {
      thrower.push(commit.block.height);
      if (commit.block.height === 1) throw new Error("cannot index block 1");
    }, "thrower");
    c.onBlockCommit(async (commit) => {
      if (commit.block.height === 2) throw new Error("rejected block 2");
    }, "rejecter");
    c.onBlockCommit((commit) => void others.push(commit.block.height), "other");
    for (let i = 0; i < 3; i++) c.produceBlock();
    await until(() => others.length === 3 && thrower.length === 3 && reports.length === 2);
    await turns(5);
    expect(reports).toEqual([
      { subscriber: "thrower", height: 1, error: "Error: cannot index block 1" },
      { subscriber: "rejecter", height: 2, error: "Error: rejected block 2" },
    ]);
    expect(thrower).toEqual([1, 2, 3]);
    expect(others).toEqual([1, 2, 3]);
  });

  it("an unsubscribed subscriber gets nothing more; a rewind drops undelivered commits of dropped blocks", async () => {
    const c = await chain();
    const seen: number[] = [];
    const off = c.onBlockCommit((commit) => void seen.push(commit.block.height), "rewound");
    for (let i = 0; i < 4; i++) c.produceBlock();
    c.producer.rewindTo(2);
    await turns(10);
    expect(seen).toEqual([1, 2]);
    off();
    c.produceBlock();
    await turns(10);
    expect(seen).toEqual([1, 2]);
  });
});

describe("a failing subscriber in the service", () => {
  it("is an error line naming the subscriber, and blocks keep coming", async () => {
    const lines: string[] = [];
    const service = await startService({
      host: "127.0.0.1",
      rpcPort: 0,
      archivalPort: 0,
      retention: 100,
      chain: { blockTimeMs: 0 },
      logger: createLogger({ level: "error", format: "json", write: (line) => lines.push(line) }),
    });
    try {
      service.chain.onBlockCommit(() => {
        throw new Error("webhook unreachable");
      }, "webhook");
      service.chain.produceBlock();
      service.chain.produceBlock();
      await until(() => lines.length === 2);
      const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(records.map(({ level, msg, subscriber, height, error }) => ({ level, msg, subscriber, height, error }))).toEqual([
        { level: "error", msg: "block commit subscriber failed", subscriber: "webhook", height: 1, error: "webhook unreachable" },
        { level: "error", msg: "block commit subscriber failed", subscriber: "webhook", height: 2, error: "webhook unreachable" },
      ]);
      expect(service.chain.head().height).toBe(2);
      // The service's own subscribers (REST index) went on: it indexed both blocks.
      await service.indexer.whenIndexed(2);
    } finally {
      await service.close();
    }
  });
});
