import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { open } from "lmdb";
import type { Chain } from "../../../src/chain/node.js";
import { ChainStoreError } from "../../../src/chain/store/ChainStore.js";
import { LmdbChainStore } from "../../../src/chain/store/LmdbChainStore.js";
import { ALICE, BOB, CAROL, NEAR, ROOT, openChain, outcomeOf, settle, submit } from "../runtime/helpers.js";

const TGAS = 10n ** 12n;
const json = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
const call = (methodName: string, args: unknown, deposit: bigint) => ({
  type: "FunctionCall" as const,
  methodName,
  args: json(args),
  gas: 100n * TGAS,
  deposit,
});

const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "shardkit-durable-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Everything a client can read of a chain up to its head, as plain JSON-able values. */
function snapshot(chain: Chain, txHashes: readonly string[]) {
  const blocks = [];
  for (let h = chain.genesisBlock.height; h <= chain.head().height; h++) {
    const block = chain.blockByHeight(h)!;
    blocks.push({
      view: block.view,
      roots: chain.shardLayout.shardIds.map((id) => chain.at(block).stateRoot(id)),
      accounts: [ALICE, BOB, CAROL, ROOT, "ft.test.near"].map((a) => chain.at(block).account(a)),
      ftState: chain.at(block).contractState("ft.test.near", { prefix: new Uint8Array(0) }),
      delayed: chain.shardLayout.shardIds.map((id) => chain.at(block).delayedReceiptCount(id)),
    });
  }
  const statuses = txHashes.map((hash) => chain.transactionStatus(hash));
  const receipts = statuses.flatMap((s) => (s?.outcome?.receipts_outcome ?? []).map((o) => chain.receipt(o.id)));
  return { blocks, statuses, receipts };
}

describe("a chain on disk resumes where it stopped", () => {
  it("blocks, transactions, receipts, outcomes and state after close and reopen; receipts in flight still execute", async () => {
    const dir = dataDir();
    const chain = await openChain({ dataDir: dir });
    expect(chain.durable).toBe(true);
    const hashes = [
      submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: 3n * NEAR }]),
      submit(chain, CAROL, "ft.test.near", [call("storage_deposit", {}, 2n * NEAR)]),
    ];
    settle(chain, hashes[0]!);
    settle(chain, hashes[1]!);
    hashes.push(submit(chain, ROOT, "ft.test.near", [call("ft_transfer", { receiver_id: CAROL, amount: "77" }, 1n)]));
    hashes.push(submit(chain, BOB, CAROL, [{ type: "Transfer", deposit: NEAR }]));
    chain.produceBlock(); // both included; their receipts are still in flight
    const before = snapshot(chain, hashes);
    expect(before.statuses.every((s) => s !== undefined)).toBe(true);
    await chain.close();

    const again = await openChain({ dataDir: dir });
    expect(again.genesisBlock.hash).toBe(chain.genesisBlock.hash);
    expect(again.head().hash).toBe(chain.head().hash);
    expect(snapshot(again, hashes)).toEqual(before);
    expect(again.devAccounts).toEqual(chain.devAccounts);
    // The receipts in flight at close execute in the next blocks, and nonces continue.
    const ft = outcomeOf(settle(again, hashes[2]!));
    expect(ft.status).toMatchObject({ SuccessValue: expect.any(String) });
    settle(again, hashes[3]!);
    const out = again.at(again.head()).callFunction("ft.test.near", "ft_balance_of", json({ account_id: CAROL }));
    expect(out.ok && new TextDecoder().decode(out.result)).toBe('"77"');
    const next = submit(again, ALICE, BOB, [{ type: "Transfer", deposit: 1n }]);
    expect(outcomeOf(settle(again, next)).status).toEqual({ SuccessValue: "" });
    const atClose = snapshot(again, [...hashes, next]);
    const headAtClose = again.head().hash;
    await again.close();

    const third = await openChain({ dataDir: dir });
    expect(third.head().hash).toBe(headAtClose);
    expect(snapshot(third, [...hashes, next])).toEqual(atClose);
    await third.close();
  });

  it("reopens by reading the stored state roots: no delta is re-applied and the genesis record holds no entries", async () => {
    const { LmdbChainStore } = await import("../../../src/chain/store/LmdbChainStore.js");
    const dir = dataDir();
    const chain = await openChain({ dataDir: dir });
    const hashes = [submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: 2n * NEAR }]), submit(chain, CAROL, ROOT, [{ type: "Transfer", deposit: NEAR }])];
    for (const h of hashes) settle(chain, h);
    const before = snapshot(chain, hashes);
    await chain.close();

    const store = LmdbChainStore.open(dir);
    expect(store.genesis()!.shards).toEqual([]);
    expect(store.genesis()!.stateRoots).toHaveLength(chain.shardLayout.numShards);
    const again = await openChain({ chainStore: store });
    // Re-applying a delta would have staged new nodes (the node cache starts empty).
    expect(store.stateStore().stagedNodes).toBe(0);
    expect(snapshot(again, hashes)).toEqual(before);
    expect(again.resumedAtHeight).toBe(chain.head().height);
    await again.close();
  });

  it.each([1, 2])("a format %i data dir (an older shardkit's records) is refused with an error naming its version", async (format) => {
    const { serialize } = await import("node:v8");
    const dir = dataDir();
    const chain = await openChain({ dataDir: dir });
    await chain.close();
    const db = open({ path: dir, encoding: "binary" });
    await db.put(["format"], serialize({ format, software: "shardkit" }));
    await db.close();
    await expect(openChain({ dataDir: dir })).rejects.toThrow(`data dir ${dir} has store format ${format}; this shardkit reads formats 3, 4 (use another --data-dir or --ephemeral)`);
  });

  it("a format 3 data dir (V8-serialised records) resumes: its records are read, new ones are Borsh, and it is marked format 4", async () => {
    const { serialize } = await import("node:v8");
    const dir = dataDir();
    const chain = await openChain({ dataDir: dir });
    const transfer = (deposit: bigint) => ({ type: "Transfer" as const, deposit });
    const hashes = [submit(chain, ALICE, BOB, [transfer(5n)]), submit(chain, CAROL, "ft.test.near", [call("storage_deposit", {}, 2n * NEAR)])];
    settle(chain, hashes[1]!);
    const before = snapshot(chain, hashes);
    await chain.close();
    // Rewrite every record the way format 3 wrote it.
    const db = open<Buffer, any>({ path: dir, encoding: "binary" });
    const legacy = LmdbChainStore.open(dir, { lock: false });
    const genesis = legacy.genesis()!;
    const blocks = [...legacy.blocksFrom(0)];
    const head = legacy.headHeight()!;
    await legacy.close();
    await db.put(["format"], serialize({ format: 3, software: "shardkit" }));
    await db.put(["genesis"], serialize(genesis));
    for (const b of blocks) await db.put(["b", b.height], serialize(b));
    await db.put(["head"], serialize(head));
    await db.close();
    const again = await openChain({ dataDir: dir });
    expect(snapshot(again, hashes)).toEqual(before);
    settle(again, submit(again, ROOT, "ft.test.near", [call("ft_transfer", { receiver_id: CAROL, amount: "9" }, 1n)]));
    await again.close();
    const reopened = LmdbChainStore.open(dir, { lock: false });
    expect(reopened.headHeight()).toBeGreaterThan(head);
    expect([...reopened.blocksFrom(0)].length).toBe(reopened.headHeight()! - genesis.config.genesisHeight);
    await reopened.close();
    const raw = open<Buffer, any>({ path: dir, encoding: "binary" });
    expect(raw.getBinary(["format"])![0]).toBe(0x53); // rewritten as a format 4 header record
    expect(raw.getBinary(["b", head])![0]).toBe(0xff); // the old records stay as they were
    expect(raw.getBinary(["b", head + 1])![0]).toBe(0x53);
    await raw.close();
  });

  it("a second writer on the same data dir in this process is refused until the first closes", async () => {
    const dir = dataDir();
    const chain = await openChain({ dataDir: dir });
    await expect(openChain({ dataDir: dir })).rejects.toThrow(new RegExp(`data dir ${dir} is in use by process ${process.pid}`));
    await chain.close();
    const again = await openChain({ dataDir: dir });
    expect(again.head().hash).toBe(chain.head().hash);
    await again.close();
  });

  it("the in-memory store keeps the same behaviour and is not durable", async () => {
    const chain = await openChain();
    expect(chain.durable).toBe(false);
    const hash = submit(chain, ALICE, BOB, [{ type: "Transfer", deposit: 1n }]);
    expect(outcomeOf(settle(chain, hash)).status).toEqual({ SuccessValue: "" });
    await chain.close();
  });

  it("refuses options that contradict the stored chain, a genesis file, and a data dir of another format", async () => {
    const dir = dataDir();
    const chain = await openChain({ dataDir: dir, shards: 4 });
    chain.produceBlock();
    await chain.close();
    await expect(openChain({ dataDir: dir, shards: 2 })).rejects.toThrow(/shard count 4, not 2/);
    await expect(openChain({ dataDir: dir, chainId: "other" })).rejects.toThrow(/chain id localnet, not other/);
    const genesis = join(dataDir(), "genesis.json");
    writeFileSync(genesis, JSON.stringify({ chain_id: "x", records: [] }));
    await expect(openChain({ dataDir: dir, genesisFile: genesis })).rejects.toThrow(ChainStoreError);
    // Same options reopen fine after the refusals (nothing was written by them).
    const reopened = await openChain({ dataDir: dir, shards: 4 });
    expect(reopened.head().height).toBe(chain.head().height);
    await reopened.close();

    const db = open({ path: dir });
    await db.put(["format"], Buffer.from("not a header"));
    await db.close();
    await expect(openChain({ dataDir: dir })).rejects.toThrow(/unreadable format header/);

    const foreign = dataDir();
    const other = open({ path: foreign });
    await other.put("someone else's key", "value");
    await other.close();
    await expect(openChain({ dataDir: foreign })).rejects.toThrow(/not a shardkit chain/);
  });

  it("an unwritable data dir is a clear error", async () => {
    const file = join(dataDir(), "a-file");
    writeFileSync(file, "");
    await expect(openChain({ dataDir: join(file, "chain") })).rejects.toThrow(/cannot open data dir .*a-file\/chain/);
  });
});

describe("a failed commit", () => {
  it("stops the chain: the block is not shown, later production throws the same error, the store keeps the last good block", async () => {
    const { MemoryChainStore } = await import("../../../src/chain/store/MemoryChainStore.js");
    const store = new MemoryChainStore();
    const chain = await openChain({ chainStore: store });
    chain.produceBlock();
    const good = chain.head();
    const commit = store.commitBlock.bind(store);
    store.commitBlock = () => {
      throw new ChainStoreError("cannot write data dir /x: MDB_MAP_FULL");
    };
    expect(() => chain.produceBlock()).toThrow(/MDB_MAP_FULL/);
    expect(chain.head().hash).toBe(good.hash);
    store.commitBlock = commit;
    expect(() => chain.produceBlock()).toThrow(/MDB_MAP_FULL/);
    expect(store.headHeight()).toBe(good.height);
  });
});
