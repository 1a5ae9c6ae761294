import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BLOCK_CACHE_ENTRIES, RECORD_CACHE_ENTRIES } from "../../../src/chain/blocks/BlockHistory.js";
import { merkleRootOfHashes } from "../../../src/chain/blocks/merkle.js";
import { base58Encode } from "@shardkit/primitives/base58";
import type { ChainStore } from "../../../src/chain/store/ChainStore.js";
import { LmdbChainStore } from "../../../src/chain/store/LmdbChainStore.js";
import { LruCache } from "../../../src/chain/store/LruCache.js";
import { MemoryChainStore } from "../../../src/chain/store/MemoryChainStore.js";
import { ALICE, BOB, CAROL, openChain, settle, submit } from "../runtime/helpers.js";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const stores: [string, () => ChainStore][] = [
  ["memory", () => new MemoryChainStore()],
  [
    "lmdb",
    () => {
      const dir = mkdtempSync(join(tmpdir(), "shardkit-history-"));
      dirs.push(dir);
      return LmdbChainStore.open(dir);
    },
  ],
];

describe("LruCache", () => {
  it("holds at most its capacity and forgets the least recently used entry first", () => {
    const cache = new LruCache<number, string>(3);
    for (const k of [1, 2, 3]) cache.set(k, `v${k}`);
    expect(cache.get(1)).toBe("v1"); // 1 is now the most recently used
    cache.set(4, "v4");
    expect(cache.size).toBe(3);
    expect(cache.get(2)).toBeUndefined();
    expect([1, 3, 4].map((k) => cache.get(k))).toEqual(["v1", "v3", "v4"]);
    let loads = 0;
    expect(cache.getOrLoad(9, () => (loads++, "v9"))).toBe("v9");
    expect(cache.getOrLoad(9, () => (loads++, "again"))).toBe("v9");
    expect(cache.getOrLoad(10, () => undefined)).toBeUndefined();
    expect(loads).toBe(1);
    expect(cache.size).toBe(3);
    cache.deleteWhere((k) => k > 3);
    expect(cache.size).toBe(1);
    expect(() => new LruCache(0)).toThrow(RangeError);
  });
});

describe.each(stores)("the chain read back from a %s store", (_name, make) => {
  it("serves every block, transaction and receipt as produced, beyond its cache bounds, after a reopen and after a revert", async () => {
    const store = make();
    const chain = await openChain({ chainStore: store });
    const hashes = [submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: 5n }]), submit(chain, CAROL, ALICE, [{ type: "Transfer", deposit: 7n }])];
    for (const h of hashes) settle(chain, h);
    const produced = [chain.genesisBlock];
    const blocks = BLOCK_CACHE_ENTRIES + RECORD_CACHE_ENTRIES + 20;
    while (chain.head().height < blocks) produced.push(chain.produceBlock());
    const views = new Map<number, string>();
    for (let h = 0; h <= chain.head().height; h++) views.set(h, JSON.stringify(chain.blockByHeight(h)!.view));
    const statuses = hashes.map((h) => JSON.stringify(chain.transactionStatus(h)));
    // Produced blocks (kept whole) and blocks rebuilt from their records after eviction agree.
    for (const b of produced) expect(JSON.stringify(b.view)).toBe(views.get(b.height));

    const again = await openChain({ chainStore: store });
    expect(again.head().hash).toBe(chain.head().hash);
    // Oldest first, then newest first: every read past the bounds rebuilds from the store.
    for (const order of [[...views.keys()], [...views.keys()].reverse()]) {
      for (const h of order) {
        const block = again.blockByHeight(h)!;
        expect(JSON.stringify(block.view)).toBe(views.get(h));
        expect(again.blockByHash(block.hash)?.height).toBe(h);
        for (const [i, c] of block.view.chunks.entries()) expect(again.chunkByHash(c.chunk_hash)).toMatchObject({ shardIndex: i, block: { height: h } });
      }
    }
    expect(hashes.map((h) => JSON.stringify(again.transactionStatus(h)))).toEqual(statuses);

    // Every header's block_merkle_root is the root over all earlier block hashes, before and after a revert.
    const rootsAgree = () => {
      const all: Uint8Array[] = [];
      for (let h = 0; h <= again.head().height; h++) {
        const b = again.blockByHeight(h)!;
        expect(b.view.header.block_merkle_root).toBe(base58Encode(merkleRootOfHashes(all)));
        all.push(b.hashBytes);
      }
    };
    rootsAgree();
    const keep = 100;
    again.producer.rewindTo(keep);
    expect(again.blockByHeight(keep + 1)).toBeUndefined();
    expect(again.blockByHash(produced[keep + 1]!.hash)).toBeUndefined();
    for (let i = 0; i < 40; i++) again.produceBlock();
    expect(again.blockByHeight(keep + 1)!.hash).not.toBe(produced[keep + 1]!.hash);
    rootsAgree();
    await again.close();
  });
});
