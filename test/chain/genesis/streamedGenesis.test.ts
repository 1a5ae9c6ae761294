import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { devKeyPair } from "../../../src/chain/genesis/devKey.js";
import { EntrySorter } from "../../../src/chain/genesis/EntrySorter.js";
import { readEntryRecords } from "../../../src/chain/genesis/entryRecords.js";
import { WorkerEntrySorter } from "../../../src/chain/genesis/WorkerEntrySorter.js";
import { loadGenesisFile } from "../../../src/chain/genesis/loadGenesisFile.js";
import { Chain } from "../../../src/chain/node.js";
import { sha256 } from "../../../src/chain/primitives/sha256.js";
import { ShardLayout } from "../../../src/chain/shards/ShardLayout.js";
import { LmdbChainStore } from "../../../src/chain/store/LmdbChainStore.js";
import { NodeBuckets } from "../../../src/chain/store/NodeBuckets.js";
import { WorkerBucketOrder } from "../../../src/chain/store/WorkerBucketOrder.js";
import { Trie } from "../../../src/chain/store/Trie.js";

const dir = mkdtempSync(join(tmpdir(), "shardkit-streamed-genesis-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (name: string) => join(dir, `${name}-${n++}`);

const b64 = (b: Uint8Array | string) => Buffer.from(typeof b === "string" ? Buffer.from(b, "latin1") : b).toString("base64");
const account = (id: string, amount: string) => ({
  Account: { account_id: id, account: { amount, locked: "0", code_hash: "11111111111111111111111111111111", storage_usage: 0 } },
});
const data = (id: string, key: string, value: string) => ({ Data: { account_id: id, data_key: b64(key), value: b64(value) } });

/** Accounts on every shard of a 4-shard layout, keys that are prefixes of others, records out of order. */
function records(keysPerAccount: number): unknown[] {
  const out: unknown[] = [];
  const ids = ["a.near", "m.near", "p.near", "z.near", "zz.near"];
  for (const id of ids) {
    for (let i = 0; i < keysPerAccount; i++) {
      const h = Buffer.from(sha256(Buffer.from(`${id}/${i}`))).toString("latin1");
      const key = h.slice(0, 1 + (i % 7)); // 1..7 bytes: many keys end where others go on
      out.push(data(id, key + String(i), "v".repeat(i % 50)));
    }
    out.push(account(id, "1000000"));
    out.push({ AccessKey: { account_id: id, public_key: devKeyPair(id).publicKeyString, access_key: { nonce: 0, permission: "FullAccess" } } });
  }
  out.push({ Contract: { account_id: "p.near", code: b64("\0asm\x01\0\0\0") } });
  return out;
}

function writeGenesis(recs: unknown[]): string {
  const path = fresh("genesis") + ".json";
  writeFileSync(path, `{"chain_id":"t","genesis_height":0,"records":[${recs.map((r) => JSON.stringify(r)).join(",\n")}]}`);
  return path;
}

const layout = () => ShardLayout.fromBoundaries(["g.near", "o.near", "y.near"]);
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("streamed genesis load into the disk store", () => {
  it("gives the in-memory load's roots and values with sort runs and node buckets spilled to scratch files", async () => {
    const file = writeGenesis(records(400));
    const memory = await loadGenesisFile(file, layout, 0);
    const store = LmdbChainStore.open(fresh("data"));
    try {
      // Budgets of a few KB: dozens of sort runs and every node bucket on disk.
      const disk = await loadGenesisFile(file, layout, 0, store.stateStore(), { runBytes: 4_000, bucketMemory: 8_000, streamFromBytes: 0 });
      expect(disk.roots).toHaveLength(4);
      expect(disk.state.totalSupply).toBe(memory.state.totalSupply);
      expect(disk.state.recordCount).toBe(memory.state.recordCount);
      memory.state.shards.forEach((shard, i) => {
        expect(shard.keys.length).toBeGreaterThan(0);
        expect(hex(disk.roots![i]!)).toBe(hex(Trie.fromSorted(shard.keys, shard.values).rootHash()));
        const snapshot = store.stateStore().byRoot(disk.roots![i]!)!;
        shard.keys.forEach((k, j) => expect(snapshot.get(k)).toBe(shard.values[j]));
      });
      // The scratch files are gone.
      expect(existsSync(join(store.path, "genesis-scratch"))).toBe(false);
    } finally {
      await store.close();
    }
  });

  it("gives the in-memory load's roots for a genesis of many accounts (their entries reach the sort worker in waits, not at once)", async () => {
    const file = writeGenesis(Array.from({ length: 25_000 }, (_, i) => account(`a${i}.near`, String(1000 + i))));
    const memory = await loadGenesisFile(file, layout, 0);
    const store = LmdbChainStore.open(fresh("data"));
    try {
      const disk = await loadGenesisFile(file, layout, 0, store.stateStore(), { runBytes: 50_000, streamFromBytes: 0 });
      expect(disk.state.accountCount).toBe(25_000);
      memory.state.shards.forEach((shard, i) => expect(hex(disk.roots![i]!)).toBe(hex(Trie.fromSorted(shard.keys, shard.values).rootHash())));
    } finally {
      await store.close();
    }
  });

  it("reports a duplicate key and a missing Account record as the in-memory load does", async () => {
    const dup = writeGenesis([...records(50), data("m.near", "k", "1"), data("m.near", "k", "2")]);
    const orphan = writeGenesis([...records(50), data("q.near", "k", "1")]);
    for (const file of [dup, orphan]) {
      const expected = await loadGenesisFile(file, layout, 0).then(
        () => "loaded",
        (e: Error) => e.message,
      );
      expect(expected).toMatch(/same state key as record|no Account record/);
      const store = LmdbChainStore.open(fresh("data"));
      try {
        await expect(loadGenesisFile(file, layout, 0, store.stateStore(), { runBytes: 2_000, streamFromBytes: 0 })).rejects.toThrow(expected);
      } finally {
        await store.close();
      }
    }
  });

  it("a load that never reached its genesis commit is discarded on the next open (readers refuse it)", async () => {
    const dataDir = fresh("data");
    const file = writeGenesis(records(100));
    const bad = writeGenesis([...records(100), data("nobody.near", "k", "1")]);
    await expect(Chain.open({ genesisFile: bad, dataDir, blockTimeMs: 0, streamGenesisFromBytes: 0 })).rejects.toThrow(/no Account record/);
    expect(readdirSync(dataDir)).toContain("genesis-loading");
    expect(() => LmdbChainStore.open(dataDir, { lock: false })).toThrow(/unfinished genesis load/);
    // A writer starts over: the same dir takes the good file.
    const chain = await Chain.open({ genesisFile: file, dataDir, blockTimeMs: 0, streamGenesisFromBytes: 0 });
    const roots = chain.head().postState.map((s) => hex(s.rootHash));
    await chain.close();
    expect(readdirSync(dataDir)).not.toContain("genesis-loading");
    const reopened = await Chain.open({ dataDir, blockTimeMs: 0 });
    expect(reopened.head().postState.map((s) => hex(s.rootHash))).toEqual(roots);
    await reopened.close();
  });
});

describe("external sort pieces", () => {
  it("EntrySorter merges spilled runs into key order, ties by record", () => {
    const sorter = new EntrySorter(fresh("sort"), 4_000);
    const keys: [string, number][] = [];
    for (let i = 0; i < 3_000; i++) {
      const k = Buffer.from(sha256(Buffer.from([i & 0xff, i >> 8]))).toString("latin1").slice(0, 1 + (i % 3));
      keys.push([k, i]);
      sorter.add(k, `v${i}`, i, i % 5);
    }
    const got = [...sorter.sorted()].map((e) => [e.key, e.record, e.value, e.owner]);
    sorter.dispose();
    const want = keys.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1])).map(([k, i]) => [k, i, `v${i}`, i % 5]);
    expect(got).toEqual(want);
  });

  /** 3,000 entries with short keys (many equal), as EntrySorter's test above adds them. */
  function sortInput(): [string, string, number, number][] {
    return Array.from({ length: 3_000 }, (_, i) => {
      const k = Buffer.from(sha256(Buffer.from([i & 0xff, i >> 8]))).toString("latin1").slice(0, 1 + (i % 3));
      return [k, `v${i}`.repeat(1 + (i % 40)), i, i % 5];
    });
  }

  async function drain(sorter: WorkerEntrySorter, limit = Infinity): Promise<[string, string, number, number][]> {
    const got: [string, string, number, number][] = [];
    for await (const batch of sorter.sortedBatches()) {
      readEntryRecords(batch, (key, value, record, owner) => got.push([key, value, record, owner]));
      if (got.length >= limit) break;
    }
    return got;
  }

  it("WorkerEntrySorter sorts on its worker thread exactly as EntrySorter does, in memory and through spilled runs", async () => {
    const input = sortInput();
    for (const runBytes of [undefined, 4_000]) {
      const local = new EntrySorter(fresh("sort"), runBytes);
      for (const e of input) local.add(...e);
      const want = [...local.sorted()].map((e) => [e.key, e.value, e.record, e.owner]);
      local.dispose();
      const dir = fresh("sort");
      const sorter = new WorkerEntrySorter(dir, runBytes);
      for (const e of input) sorter.add(...e);
      await sorter.ready();
      expect(await drain(sorter)).toEqual(want);
      await sorter.close();
      expect(existsSync(dir)).toBe(false);
    }
  });

  it("WorkerEntrySorter reports its worker's failure (scratch dir impossible) and a consumer may stop early", async () => {
    const file = fresh("a-file");
    writeFileSync(file, "");
    const broken = new WorkerEntrySorter(join(file, "entries"), 1_000);
    const input = sortInput();
    await expect(
      (async () => {
        for (const e of input) broken.add(...e);
        await broken.ready();
        await drain(broken);
      })(),
    ).rejects.toThrow(/genesis sort \(scratch files in .+\): ENOTDIR/);
    await broken.close();

    const dir = fresh("sort");
    const early = new WorkerEntrySorter(dir, 4_000);
    // Large values: many sorted batches, more than are ever in flight.
    for (let i = 0; i < 200; i++) early.add(`k${1000 + i}`, "x".repeat(100_000), i, 0);
    const first = await drain(early, 1);
    expect(first[0]![0]).toBe("k1000");
    await early.close();
    expect(existsSync(dir)).toBe(false);
  });

  it("NodeBuckets gives every distinct node once, in hash order, spilled or not, sorted here or on a worker thread", async () => {
    const worker = new WorkerBucketOrder();
    for (const [budget, order] of [
      [1 << 30, undefined],
      [500, undefined],
      [1 << 30, (data: Buffer) => worker.order(data)],
      [500, (data: Buffer) => worker.order(data)],
    ] as const) {
      const buckets = new NodeBuckets(fresh("nodes"), budget);
      const added = new Map<string, string>();
      for (let i = 0; i < 5_000; i++) {
        const enc = Buffer.from(`node ${i % 4_000}`); // a fifth repeats an earlier node
        const hash = Buffer.from(sha256(enc)).toString("latin1");
        added.set(hash, enc.toString());
        buckets.add(hash, enc);
      }
      const seen: [string, string][] = [];
      await buckets.forEachBucket((forEachNode) => forEachNode((h, e) => seen.push([h.toString("latin1"), e.toString()])), order);
      buckets.dispose();
      expect(seen).toEqual([...added.entries()].sort((a, b) => Buffer.compare(Buffer.from(a[0], "latin1"), Buffer.from(b[0], "latin1"))));
    }
    await worker.close();
  });
});
