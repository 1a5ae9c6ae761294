import { afterEach, describe, expect, it } from "vitest";
import {
  BlockScheduler,
  FINALITY_BLOCKS,
  MAX_BLOCKS_PER_ARRIVAL,
  MAX_BLOCKS_PER_DEMAND,
  type SchedulableChain,
} from "../../../src/chain/blocks/BlockScheduler.js";
import type { Chain } from "../../../src/chain/node.js";
import { ALICE, BOB, NEAR, openChain, submit } from "../runtime/helpers.js";

/** Resolves after `n` turns of the event loop (the scheduler produces at most one block per turn). */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Resolves once the chain has been idle (no new block) for 20 turns; returns the head height. */
async function idleHeight(chain: Chain): Promise<number> {
  for (;;) {
    const height = chain.head().height;
    await turns(20);
    if (chain.head().height === height) return height;
  }
}

const chains: Chain[] = [];
afterEach(async () => {
  for (const chain of chains.splice(0)) await chain.close();
});

async function onDemandChain(): Promise<Chain> {
  const chain = await openChain({ blockTimeMs: 0 });
  chains.push(chain);
  chain.start();
  return chain;
}

describe("on-demand block production (block time 0)", () => {
  it("produces nothing while idle", async () => {
    const chain = await onDemandChain();
    await turns(50);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(chain.head().height).toBe(0);
    expect(chain.producer.hasPendingWork()).toBe(false);
  });

  it("a hold (a fast-forward running) keeps the scheduler from producing; the release picks up what it owes", async () => {
    const chain = await onDemandChain();
    const release = chain.producer.holdScheduler();
    const hash = submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: NEAR }]);
    await turns(20);
    expect(chain.head().height).toBe(0);
    chain.produceBlock(); // the holder's own block includes the transaction
    await turns(20);
    expect(chain.head().height).toBe(1);
    release();
    release(); // twice is once
    expect(await idleHeight(chain)).toBe(3 + FINALITY_BLOCKS);
    expect(chain.transactionStatus(hash)?.finalExecutionStatus).toBe("FINAL");
  });

  it("a submitted transaction gets blocks until its receipts are done and two more, so final catches up; then production stops", async () => {
    const chain = await onDemandChain();
    const hash = submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: NEAR }]);
    expect(chain.head().height).toBe(0); // the block follows on a later turn, never inside the submission
    await turns(1);
    expect(chain.head().height).toBe(1); // promptly: the next turn
    const height = await idleHeight(chain);
    // Included and converted (1), the transfer receipt on bob's shard (2), its gas refund (the
    // NEP-642 price surplus) on alice's (3), two blocks on top (4, 5); nothing after.
    expect(height).toBe(3 + FINALITY_BLOCKS);
    expect(chain.blockByFinality("final").height).toBe(3);
    expect(chain.transactionStatus(hash)?.finalExecutionStatus).toBe("FINAL");
    expect(chain.producer.hasPendingWork()).toBe(false);
  });

  it("a sandbox patch (a block with staged writes) also gets the blocks that make it final", async () => {
    const chain = await onDemandChain();
    chain.producer.stage([{ type: "data", accountId: ALICE, key: new Uint8Array([1]), value: new Uint8Array([2]) }]);
    const patched = chain.producer.produceBlock();
    expect(await idleHeight(chain)).toBe(patched.height + FINALITY_BLOCKS);
    expect(chain.blockByFinality("final").hash).toBe(patched.hash);
    chain.producer.produceBlock(); // an empty block asks for nothing
    expect(await idleHeight(chain)).toBe(patched.height + FINALITY_BLOCKS + 1);
  });

  it("several submissions in one turn share a block", async () => {
    const chain = await onDemandChain();
    const a = submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: 1n }]);
    const b = submit(chain, BOB, ALICE, [{ type: "Transfer", deposit: 1n }]);
    await turns(1);
    expect(chain.head().height).toBe(1);
    const included = (hash: string) => chain.transactionStatus(hash)?.outcome?.transaction_outcome.block_hash;
    expect(included(a)).toBe(chain.head().hash);
    expect(included(b)).toBe(chain.head().hash);
  });

  it("a demand gets blocks until it is satisfied (FINAL needs two blocks on top)", async () => {
    const chain = await onDemandChain();
    const hash = submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: NEAR }]);
    const final = () => chain.transactionStatus(hash)?.finalExecutionStatus === "FINAL";
    chain.requestBlocks(final);
    const height = await idleHeight(chain);
    expect(final()).toBe(true);
    expect(height).toBe(5); // executed at 2, its gas refund at 3, final at 3 + 2
  });

  it("a released demand gets no more blocks; a stopped chain produces nothing", async () => {
    const chain = await onDemandChain();
    const release = chain.requestBlocks(() => false);
    await turns(3);
    release();
    const height = await idleHeight(chain);
    expect(height).toBeGreaterThanOrEqual(1);
    expect(height).toBeLessThanOrEqual(4);
    chain.stop();
    submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: 1n }]);
    chain.requestBlocks(() => false);
    await turns(20);
    expect(chain.head().height).toBe(height);
    chain.start(); // the pooled transaction is work: production resumes
    expect(await idleHeight(chain)).toBeGreaterThan(height);
  });
});

/** A chain stand-in that always has work or never does, counting blocks. */
function fakeChain(work: boolean, blockTimeMs = 0): SchedulableChain & { blocks: number } {
  return {
    blockTimeMs,
    blocks: 0,
    produceBlock() {
      this.blocks++;
    },
    hasPendingWork: () => work,
  };
}

describe("BlockScheduler bounds", () => {
  it("work that never ends (a receipt loop) stops after MAX_BLOCKS_PER_ARRIVAL blocks until the next arrival", async () => {
    const chain = fakeChain(true);
    const scheduler = new BlockScheduler(chain, (e) => {
      throw e;
    });
    scheduler.start();
    await turns(MAX_BLOCKS_PER_ARRIVAL + 20);
    expect(chain.blocks).toBe(MAX_BLOCKS_PER_ARRIVAL);
    scheduler.transactionArrived();
    await turns(MAX_BLOCKS_PER_ARRIVAL + 20);
    expect(chain.blocks).toBe(2 * MAX_BLOCKS_PER_ARRIVAL);
    scheduler.stop();
  });

  it("a busy loop gets no finality blocks past MAX_BLOCKS_PER_ARRIVAL (each would be busy again)", async () => {
    const chain = fakeChain(true);
    const scheduler = new BlockScheduler(chain, (e) => {
      throw e;
    });
    chain.produceBlock = function () {
      this.blocks++;
      scheduler.blockProduced(true);
    };
    scheduler.start();
    await turns(MAX_BLOCKS_PER_ARRIVAL + 20);
    expect(chain.blocks).toBe(MAX_BLOCKS_PER_ARRIVAL);
    scheduler.stop();
  });

  it("an unsatisfiable demand gets MAX_BLOCKS_PER_DEMAND blocks", async () => {
    const chain = fakeChain(false);
    const scheduler = new BlockScheduler(chain, (e) => {
      throw e;
    });
    scheduler.start();
    scheduler.demand(() => false);
    await turns(MAX_BLOCKS_PER_DEMAND + 20);
    expect(chain.blocks).toBe(MAX_BLOCKS_PER_DEMAND);
    scheduler.stop();
  });

  it("a failing production stops the scheduler and reaches onError", async () => {
    const errors: unknown[] = [];
    const chain: SchedulableChain = {
      blockTimeMs: 0,
      produceBlock: () => {
        throw new Error("disk full");
      },
      hasPendingWork: () => true,
    };
    const scheduler = new BlockScheduler(chain, (e) => errors.push(e));
    scheduler.start();
    await turns(5);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toContain("disk full");
    expect(scheduler.running).toBe(false);
  });

  it("a timed chain ignores arrivals and demands (the timer produces)", async () => {
    const chain = fakeChain(true, 3_600_000);
    const scheduler = new BlockScheduler(chain, (e) => {
      throw e;
    });
    scheduler.start();
    scheduler.transactionArrived();
    scheduler.demand(() => false)();
    await turns(10);
    expect(chain.blocks).toBe(0);
    scheduler.stop();
  });
});
