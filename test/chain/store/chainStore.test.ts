import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { base58Encode } from "@shardkit/primitives/base58";
import { LmdbChainStore } from "../../../src/chain/store/LmdbChainStore.js";
import { MemoryChainStore } from "../../../src/chain/store/MemoryChainStore.js";
import type { ChainStore, StoredBlock } from "../../../src/chain/store/ChainStore.js";
import { ALICE, BOB, openChain, settle, submit } from "../runtime/helpers.js";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const stores: [string, () => ChainStore][] = [
  ["memory", () => new MemoryChainStore()],
  [
    "lmdb",
    () => {
      const dir = mkdtempSync(join(tmpdir(), "shardkit-store-"));
      dirs.push(dir);
      return LmdbChainStore.open(dir);
    },
  ],
];

describe.each(stores)("%s ChainStore", (_name, make) => {
  it("keeps the genesis and every committed block, found by height, hash, transaction and receipt", async () => {
    const store = make();
    const chain = await openChain({ chainStore: store });
    const genesis = store.genesis()!;
    expect(genesis.genesisHash).toBe(chain.genesisBlock.hash);
    expect(genesis.devGenesis).toBe(true);
    expect(store.headHeight()).toBeUndefined();
    expect(store.heightOfBlock(chain.genesisBlock.hash)).toBe(chain.genesisBlock.height);

    const tx = submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: 5n }]);
    settle(chain, tx);
    const head = chain.head();
    expect(store.headHeight()).toBe(head.height);
    for (let h = chain.genesisBlock.height + 1; h <= head.height; h++) {
      const stored = store.block(h)!;
      expect(stored.height).toBe(h);
      expect(stored.hash).toBe(chain.blockByHeight(h)!.hash);
      expect(stored.timestampNs).toBe(chain.blockByHeight(h)!.timestampNs);
      expect(store.heightOfBlock(stored.hash)).toBe(h);
    }
    const included = store.heightOfTransaction(tx)!;
    expect(store.block(included)!.chunkResults.flatMap((r) => r.included.map((i) => base58Encode(i.stx.hash)))).toEqual([tx]);
    const receiptId = chain.transactionStatus(tx)!.outcome!.transaction_outcome.outcome.receipt_ids[0]!;
    expect(store.heightOfReceipt(receiptId)).toBe(included);
    expect([...store.blocksFrom(included)].map((b) => b.height)).toEqual(
      Array.from({ length: head.height - included + 1 }, (_, i) => included + i),
    );
    expect(store.block(head.height + 1)).toBeUndefined();
    expect(store.heightOfTransaction("nope")).toBeUndefined();
    expect(store.heightOfReceipt("nope")).toBeUndefined();
    expect(store.block(1.5)).toBeUndefined();
    await store.close();
  });

  it("refuses a second genesis and a block out of order", async () => {
    const store = make();
    const chain = await openChain({ chainStore: store });
    expect(() => store.initGenesis(store.genesis()!)).toThrow(/already holds a chain/);
    const wrong: StoredBlock = {
      height: chain.head().height + 2,
      hash: "x",
      timestampNs: 0n,
      stateChanges: [],
      causedChanges: [],
      chunkResults: [],
      stateRoots: [],
      totalSupply: 0n,
      outcomeRoots: [],
      chunkHashes: [],
      epochProposals: [],
      signatures: { approval: new Uint8Array(64), block: new Uint8Array(64), chunks: [] },
    };
    expect(() => store.commitBlock(wrong, [])).toThrow(/expected/);
    await store.close();
  });
});
