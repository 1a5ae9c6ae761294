// The in-memory store: rows per block, FT balances and top holders in FastNEAR's order,
// key permissions, and blocks applied strictly in order.

import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { MemoryIndexStore } from "../../src/indexer/MemoryIndexStore.js";
import type { IndexBlockUpdate } from "../../src/indexer/IndexStore.js";
import { blockUpdate } from "../support/indexBlockUpdate.js";
import { randomBlocks, readAll } from "./indexStoreSuite.js";

const block = (height: number, over: Partial<IndexBlockUpdate> = {}): IndexBlockUpdate =>
  blockUpdate(height, BigInt(height) * 1_000_000_000n, over);

describe("MemoryIndexStore", () => {
  it("keeps the height a row last changed at, sorted rows, and exact balances", () => {
    const store = new MemoryIndexStore();
    store.apply(block(1, { ft: [{ accountId: "a.near", contractId: "z.near", balance: "10" }], balancesRead: true }));
    store.apply(block(2, { ft: [{ accountId: "a.near", contractId: "b.near", balance: null }], nft: [{ accountId: "a.near", contractId: "n.near" }] }));
    store.apply(block(3, { ft: [{ accountId: "a.near", contractId: "z.near", balance: "" }] }));
    expect(store.ftRows("a.near")).toEqual([
      { contractId: "b.near", balance: null, lastUpdateBlockHeight: 2 },
      { contractId: "z.near", balance: "", lastUpdateBlockHeight: 3 },
    ]);
    expect(store.nftRows("a.near")).toEqual([{ contractId: "n.near", lastUpdateBlockHeight: 2 }]);
    expect(store.balanceHeight).toBe(1);
    expect(store.height).toBe(3);
    expect(() => store.apply(block(3))).toThrow(/cannot apply block 3/);
  });

  it("orders top holders by u128 balance then account id, both descending, without lost precision", () => {
    const store = new MemoryIndexStore();
    const big = (10n ** 30n).toString();
    store.apply(
      block(1, {
        ft: [
          { accountId: "a.near", contractId: "t.near", balance: big },
          { accountId: "b.near", contractId: "t.near", balance: (10n ** 30n + 1n).toString() },
          { accountId: "c.near", contractId: "t.near", balance: big },
          { accountId: "d.near", contractId: "t.near", balance: "" },
          { accountId: "e.near", contractId: "t.near", balance: null },
          { accountId: "f.near", contractId: "t.near", balance: "0" },
        ],
      }),
    );
    expect(store.topHolders("t.near", 100).map((h) => h.accountId)).toEqual(["b.near", "c.near", "a.near", "f.near"]);
    expect(store.topHolders("t.near", 2)).toHaveLength(2);
    expect(store.topHolders("other.near", 100)).toEqual([]);
  });

  it("tracks key permissions and deletions", () => {
    const store = new MemoryIndexStore();
    store.apply(block(1, { accessKeys: [
      { publicKey: "ed25519:k", accountId: "b.near", permission: "full" },
      { publicKey: "ed25519:k", accountId: "a.near", permission: "limited" },
    ] }));
    expect(store.keyHolders("ed25519:k", true)).toEqual(["b.near"]);
    expect(store.keyHolders("ed25519:k", false)).toEqual(["a.near", "b.near"]);
    store.apply(block(2, { accessKeys: [{ publicKey: "ed25519:k", accountId: "b.near", permission: null }] }));
    expect(store.keyHolders("ed25519:k", false)).toEqual(["a.near"]);
  });

  it("sorts a token's holders once per block that changes it, not per top request", () => {
    const store = new MemoryIndexStore();
    const holders = (n: number, contractId: string, offset = 0) =>
      Array.from({ length: n }, (_, i) => ({ accountId: `h${i}.near`, contractId, balance: String(i + offset) }));
    store.apply(block(1, { ft: [...holders(500, "t.near"), ...holders(3, "u.near")] }));
    const parse = vi.spyOn(globalThis, "BigInt");
    try {
      expect(store.topHolders("t.near", 2)).toEqual([
        { accountId: "h499.near", balance: "499" },
        { accountId: "h498.near", balance: "498" },
      ]);
      const first = parse.mock.calls.length;
      expect(first).toBeGreaterThanOrEqual(500);
      for (let i = 0; i < 20; i++) store.topHolders("t.near", 100);
      expect(parse.mock.calls.length).toBe(first);
      // A block that changes another token keeps this order; one that changes this token re-sorts.
      store.apply(block(2, { ft: [{ accountId: "x.near", contractId: "u.near", balance: "7" }] }));
      const afterOther = parse.mock.calls.length;
      store.topHolders("t.near", 100);
      expect(parse.mock.calls.length).toBe(afterOther);
      store.apply(block(3, { ft: [{ accountId: "h0.near", contractId: "t.near", balance: "1000" }] }));
      const afterChange = parse.mock.calls.length;
      expect(store.topHolders("t.near", 1)).toEqual([{ accountId: "h0.near", balance: "1000" }]);
      expect(parse.mock.calls.length).toBeGreaterThanOrEqual(afterChange + 500);
    } finally {
      parse.mockRestore();
    }
  });

  it("rewinds to the last block the chain kept, answering as a store that applied only the kept blocks; a new branch then applies (property)", async () => {
    /** A store that applied `updates` from genesis: what the rewound one must answer. */
    const storeAfter = (updates: readonly IndexBlockUpdate[]) => {
      const store = new MemoryIndexStore();
      for (const update of updates) store.apply(update);
      return store;
    };
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 2, max: 40 }), fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), async (seed, length, cuts) => {
        const sequence = randomBlocks(length, seed);
        const store = storeAfter(sequence);
        // Rewinds to ever lower kept heads (a revert after a revert).
        let kept = length - 1;
        for (const cut of cuts) {
          kept = cut % (kept + 1);
          const head = kept;
          expect(store.rewindToChain((h) => (h <= head ? `hash${h}` : undefined))).toBe(true);
          const expected = storeAfter(sequence.slice(0, kept + 1));
          expect([store.height, await readAll(store), store.pendingBalanceReads()]).toEqual([kept, await readAll(expected), expected.pendingBalanceReads()]);
        }
        // Another branch on top of the kept blocks.
        const branch = randomBlocks(length, seed + 1).slice(kept + 1).map((update) => ({ ...update, blockHash: `other${update.height}` }));
        for (const update of branch) store.apply(update);
        expect(await readAll(store)).toEqual(await readAll(storeAfter([...sequence.slice(0, kept + 1), ...branch])));
        // A chain that shares no block with it (another genesis): nothing to rewind to; clear starts over.
        expect(store.rewindToChain(() => undefined)).toBe(false);
        store.clear();
        expect([store.height, store.status(), store.pendingBalanceReads()]).toEqual([null, { height: null, timestampNs: null, balanceHeight: null }, []]);
        store.apply(sequence[0]!);
        expect(await readAll(store)).toEqual(await readAll(storeAfter(sequence.slice(0, 1))));
      }),
      { numRuns: 150 },
    );
  });
});
