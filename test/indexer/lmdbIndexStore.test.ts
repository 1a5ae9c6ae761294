// The data dir's REST index: the same answers as the in-memory store for the same blocks, kept
// across a close and reopen, emptied by `clear`.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { IndexBlockUpdate } from "../../src/indexer/IndexStore.js";
import { IndexUnavailableError } from "../../src/indexer/IndexUnavailableError.js";
import { LmdbIndexStore } from "../../src/indexer/LmdbIndexStore.js";
import { MemoryIndexStore } from "../../src/indexer/MemoryIndexStore.js";
import { blockUpdate } from "../support/indexBlockUpdate.js";
import { randomBlocks, readAll } from "./indexStoreSuite.js";

const root = mkdtempSync(join(tmpdir(), "shardkit-rest-index-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const KEYS = ["ed25519:K1"];
const TOKENS = ["t.near"];

/** Blocks 1..count of the shared suite's random sequence (block 0 is each test's own genesis). */
const blocks = (count: number, seed?: number) => randomBlocks(count + 1, seed).slice(1);

describe("LmdbIndexStore", () => {
  it("answers as the in-memory store after every block of a long random sequence", async () => {
    const memory = new MemoryIndexStore();
    const disk = LmdbIndexStore.open(join(root, "same"));
    try {
      for (const update of blocks(200)) {
        memory.apply(update);
        disk.apply(update);
        expect(await readAll(disk)).toEqual(await readAll(memory));
      }
      expect(() => disk.apply(blockUpdate(200, 0n))).toThrow(/cannot apply block 200/);
    } finally {
      await disk.close();
    }
  });

  it("keeps its rows and head across a close and reopen, and forgets them on clear", async () => {
    const dir = join(root, "reopen");
    const memory = new MemoryIndexStore();
    const first = LmdbIndexStore.open(dir);
    const sequence = blocks(50, 11);
    for (const update of sequence.slice(0, 30)) {
      memory.apply(update);
      first.apply(update);
    }
    await first.close();
    // A closed store (a reset or a stop under way) is unavailable (REST answers 503), not a driver error.
    for (const read of [() => first.account("a.near"), () => first.accountsByKey(KEYS[0]!, false), () => first.ftTop(TOKENS[0]!, 3)]) {
      expect(read).toThrow(IndexUnavailableError);
    }
    const second = LmdbIndexStore.open(dir);
    try {
      expect([second.height, second.blockHash]).toEqual([30, "hash30"]);
      expect(await readAll(second)).toEqual(await readAll(memory));
      for (const update of sequence.slice(30)) {
        memory.apply(update);
        second.apply(update);
      }
      expect(await readAll(second)).toEqual(await readAll(memory));
      second.clear();
      expect([second.height, second.blockHash, second.status().timestampNs]).toEqual([null, undefined, null]);
      expect(() => second.account("a.near")).toThrow(/not applied genesis/);
      second.apply(blockUpdate(0, 0n, { blockHash: "genesis" }));
      expect((await second.account("a.near")).ft).toEqual([]);
    } finally {
      await second.close();
    }
  });

  it("keeps the balance reads a block deferred until one reads them, across a reopen, oldest first", async () => {
    const dir = join(root, "deferred");
    const first = LmdbIndexStore.open(dir);
    first.apply(blockUpdate(0, 0n, { blockHash: "genesis" }));
    first.apply(blockUpdate(1, 1n, { ft: [{ accountId: "b.near", contractId: "t.near", balance: null, deferred: true }] }));
    first.apply(
      blockUpdate(2, 2n, {
        ft: [
          { accountId: "a.near", contractId: "t.near", balance: null, deferred: true },
          { accountId: "b.near", contractId: "t.near", balance: null, deferred: true },
          { accountId: "c.near", contractId: "u.near", balance: "5" },
        ],
      }),
    );
    await first.close();
    // A closed store (a reset or a stop under way) is unavailable (REST answers 503), not a driver error.
    for (const read of [() => first.account("a.near"), () => first.accountsByKey(KEYS[0]!, false), () => first.ftTop(TOKENS[0]!, 3)]) {
      expect(read).toThrow(IndexUnavailableError);
    }
    const second = LmdbIndexStore.open(dir);
    try {
      expect(second.pendingBalanceReads()).toEqual([
        { accountId: "b.near", contractId: "t.near" },
        { accountId: "a.near", contractId: "t.near" },
      ]);
      second.apply(blockUpdate(3, 3n, { ftRetries: [{ accountId: "b.near", contractId: "t.near", balance: "9" }] }));
      second.apply(blockUpdate(4, 4n, { ft: [{ accountId: "a.near", contractId: "t.near", balance: "1" }] }));
      expect(second.pendingBalanceReads()).toEqual([]);
      expect((await second.ftTop("t.near", 5)).holders).toEqual([
        { accountId: "b.near", balance: "9" },
        { accountId: "a.near", balance: "1" },
      ]);
    } finally {
      await second.close();
    }
  });

  it("rewinds to the last block the chain kept, restoring every row as it was there, across a reopen; a new branch then applies as on a fresh index", async () => {
    const dir = join(root, "rewind");
    const sequence = blocks(60, 23);
    const branch = blocks(60, 99).map((update) => ({ ...update, blockHash: `other${update.height}` }));
    /** A memory store that applied `updates` from genesis: what the rewound index must answer. */
    const memoryAfter = (updates: readonly IndexBlockUpdate[]) => {
      const memory = new MemoryIndexStore();
      memory.apply(blockUpdate(0, 0n, { blockHash: "genesis" }));
      for (const update of updates) memory.apply(update);
      return memory;
    };
    const first = LmdbIndexStore.open(dir);
    first.apply(blockUpdate(0, 0n, { blockHash: "genesis" }));
    for (const update of sequence) first.apply(update);
    await first.close();
    const store = LmdbIndexStore.open(dir);
    try {
      // The chain kept blocks up to 45 of this sequence (hash`N`), then 30, then 12.
      for (const kept of [45, 30, 12]) {
        const hashAt = (h: number) => (h === 0 ? "genesis" : h <= kept ? `hash${h}` : undefined);
        expect(store.rewindToChain(hashAt)).toBe(true);
        expect([store.height, store.blockHash]).toEqual([kept, `hash${kept}`]);
        expect(await readAll(store)).toEqual(await readAll(memoryAfter(sequence.slice(0, kept))));
        // The deferred reads as an index that applied only those blocks keeps them.
        const fresh = LmdbIndexStore.open(join(root, `rewind-fresh-${kept}`));
        fresh.apply(blockUpdate(0, 0n, { blockHash: "genesis" }));
        for (const update of sequence.slice(0, kept)) fresh.apply(update);
        expect(store.pendingBalanceReads()).toEqual(fresh.pendingBalanceReads());
        await fresh.close();
      }
      // Another branch from block 13 on.
      const newBlocks = branch.slice(12, 40);
      for (const update of newBlocks) store.apply(update);
      expect(await readAll(store)).toEqual(await readAll(memoryAfter([...sequence.slice(0, 12), ...newBlocks])));
      // A chain that shares no block with the index (another genesis): nothing to rewind to.
      expect(store.rewindToChain(() => undefined)).toBe(false);
      expect(store.height).toBe(40);
    } finally {
      await store.close();
    }
  });
});
