// The indexer follows a real chain: genesis accounts and keys, added and deleted keys,
// implicit accounts created by a transfer, account state per block; it never runs inside
// block production, and rebuilding from the chain gives the same index.

import { describe, expect, it } from "vitest";
import type { Chain } from "../../src/chain/node.js";
import { formatPublicKey } from "@shardkit/primitives/publicKey";
import { BlockIndexer } from "../../src/indexer/BlockIndexer.js";
import { MemoryIndexStore } from "../../src/indexer/MemoryIndexStore.js";
import { ALICE, BOB, NEAR, ROOT, keyOf, openChain, settle, submit } from "../chain/runtime/helpers.js";

/** Everything a reader can see, for comparing two indexes. */
function dump(index: MemoryIndexStore, accounts: string[], keys: string[]) {
  return {
    height: index.height,
    timestampNs: index.timestampNs,
    accounts: accounts.map((id) => [id, index.accountState(id), index.ftRows(id), index.nftRows(id), index.poolRows(id)]),
    keys: keys.map((pk) => [pk, index.keyHolders(pk, true), index.keyHolders(pk, false)]),
  };
}

async function indexed(chain: Chain, indexer: BlockIndexer<MemoryIndexStore>): Promise<void> {
  await indexer.whenIndexed(chain.head().height);
}

describe("BlockIndexer", () => {
  it("indexes genesis accounts and keys, then follows key and state changes block by block", async () => {
    const chain = await openChain();
    const store = new MemoryIndexStore();
    const indexer = new BlockIndexer(chain, store);
    indexer.start();
    expect(store.height).toBe(chain.genesisBlock.height);
    const alice = chain.devAccounts.find((a) => a.accountId === ALICE)!;
    expect(store.keyHolders(alice.publicKey, true)).toEqual([ALICE]);
    const genesisState = chain.at(chain.genesisBlock).account(ALICE)!;
    expect(store.accountState(ALICE)).toEqual({
      balance: genesisState.amount.toString(),
      locked: genesisState.locked.toString(),
      storageBytes: genesisState.storageUsage,
    });

    const full = keyOf("full");
    const limited = keyOf("limited");
    const fullKey = formatPublicKey(full.publicKey);
    const limitedKey = formatPublicKey(limited.publicKey);
    const tx = submit(chain, ALICE, ALICE, [
      { type: "AddKey", publicKey: full.publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } },
      {
        type: "AddKey",
        publicKey: limited.publicKey,
        accessKey: { nonce: 0n, permission: { FunctionCall: { allowance: null, receiverId: BOB, methodNames: [] } } },
      },
    ]);
    const status = settle(chain, tx);
    expect(status.finalExecutionStatus).toBe("FINAL");
    // Block production never ran the indexer: it is behind until the event loop turns.
    expect(store.height).toBeLessThan(chain.head().height);
    await indexed(chain, indexer);
    expect(store.height).toBe(chain.head().height);
    expect(store.keyHolders(fullKey, true)).toEqual([ALICE]);
    expect(store.keyHolders(limitedKey, true)).toEqual([]);
    expect(store.keyHolders(limitedKey, false)).toEqual([ALICE]);
    const head = chain.at(chain.head()).account(ALICE)!;
    expect(store.accountState(ALICE)).toEqual({ balance: head.amount.toString(), locked: "0", storageBytes: head.storageUsage });

    // The same key on a second account; then delete it from the first.
    settle(chain, submit(chain, BOB, BOB, [{ type: "AddKey", publicKey: full.publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } }]));
    await indexed(chain, indexer);
    expect(store.keyHolders(fullKey, true)).toEqual([ALICE, BOB]);
    settle(chain, submit(chain, ALICE, ALICE, [{ type: "DeleteKey", publicKey: full.publicKey }]));
    await indexed(chain, indexer);
    expect(store.keyHolders(fullKey, false)).toEqual([BOB]);
    indexer.stop();
  });

  it("records an implicit account created by a transfer under its key", async () => {
    const chain = await openChain();
    const indexer = new BlockIndexer(chain, new MemoryIndexStore());
    indexer.start();
    const key = keyOf("implicit");
    const implicitId = Buffer.from(key.publicKey.data).toString("hex");
    settle(chain, submit(chain, ROOT, implicitId, [{ type: "Transfer", deposit: NEAR }]));
    await indexed(chain, indexer);
    expect(indexer.store.keyHolders(formatPublicKey(key.publicKey), true)).toEqual([implicitId]);
    expect(indexer.store.accountState(implicitId)?.balance).toBe(NEAR.toString());
    indexer.stop();
  });

  it("gives the same index when rebuilt from the chain, and when started late", async () => {
    const chain = await openChain();
    const live = new BlockIndexer(chain, new MemoryIndexStore());
    live.start();
    const keys = ["a", "b", "c"].map((l) => keyOf(l));
    for (const [i, key] of keys.entries()) {
      const signer = [ALICE, BOB, ROOT][i]!;
      settle(chain, submit(chain, signer, signer, [{ type: "AddKey", publicKey: key.publicKey, accessKey: { nonce: 0n, permission: "FullAccess" } }]));
      settle(chain, submit(chain, signer, BOB, [{ type: "Transfer", deposit: BigInt(i + 1) * NEAR }]));
    }
    settle(chain, submit(chain, BOB, BOB, [{ type: "DeleteKey", publicKey: keys[1]!.publicKey }]));
    await indexed(chain, live);
    const accounts = [ALICE, BOB, ROOT, "nobody.test.near"];
    const pks = [...keys.map((k) => formatPublicKey(k.publicKey)), ...chain.devAccounts.map((a) => a.publicKey)];
    const reports: [number, number][] = [];
    const progress = { onCatchUp: (height: number, target: number) => void reports.push([height, target]), catchUpReportEvery: 3 };
    const rebuilt = BlockIndexer.rebuild(chain, new MemoryIndexStore(), progress);
    expect(dump(rebuilt, accounts, pks)).toEqual(dump(live.store, accounts, pks));
    // Progress: before the first block, every 3 blocks, after the last (the genesis is indexed first).
    const [genesis, head] = [chain.genesisBlock.height, chain.head().height];
    const every3 = Array.from({ length: Math.ceil((head - genesis) / 3) - 1 }, (_, i) => [genesis + 3 * (i + 1), head]);
    expect(reports).toEqual([[genesis, head], ...every3, [head, head]]);
    const late = new BlockIndexer(chain, new MemoryIndexStore(), { onCatchUp: () => reports.push([-1, -1]) });
    late.start();
    expect(dump(late.store, accounts, pks)).toEqual(dump(live.store, accounts, pks));
    expect(reports.filter(([h]) => h === -1)).toHaveLength(2);
    live.stop();
    late.stop();
  });

  it("catching up while a fast-forward produces 64 blocks per turn: a bounded queue, then the same index as a rebuild", async () => {
    const chain = await openChain();
    for (let i = 0; i < 700; i++) chain.produceBlock();
    const late = new BlockIndexer(chain, new MemoryIndexStore());
    late.start();
    let most = 0;
    for (let turn = 0; turn < 40; turn++) {
      for (let i = 0; i < 64; i++) chain.produceBlock();
      await new Promise((resolve) => setImmediate(resolve));
      most = Math.max(most, late.backlog);
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(257);
    await late.whenIndexed(chain.head().height);
    const accounts = [ALICE, BOB, ROOT];
    const pks = chain.devAccounts.map((a) => a.publicKey);
    expect(dump(late.store, accounts, pks)).toEqual(dump(BlockIndexer.rebuild(chain, new MemoryIndexStore()), accounts, pks));
    late.stop();
  });
});
