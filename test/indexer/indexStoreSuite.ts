// The one suite every REST index store passes (memory for --ephemeral, LMDB in the data dir,
// PostgreSQL on the gateway): the in-memory store's answers after every block of a long random
// sequence, a block it already has refused, its rows across a reopen where the backend keeps
// any, and a real chain's blocks fed by both block sources (the local chain's commits and the
// same chain's JSON-RPC) giving the in-memory store's answers. Run by indexStores.test.ts
// (memory, LMDB) and postgresIndexStore.test.ts.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FT_ACCOUNT, NFT_ACCOUNT, POOL_ACCOUNT } from "../../src/chain/genesis/devGenesis.js";
import { devKeyPair } from "../../src/chain/genesis/devKey.js";
import { ftBalanceReaderFrom, viewCallOf } from "../../src/indexer/FtBalanceReader.js";
import { IndexBuilder, UNCAPPED_BALANCE_READS } from "../../src/indexer/IndexBuilder.js";
import { indexBlocks } from "../../src/indexer/indexBlocks.js";
import type { IndexBlockUpdate, IndexReader, IndexStore, KeyPermission } from "../../src/indexer/IndexStore.js";
import { LocalBlockSource } from "../../src/indexer/LocalBlockSource.js";
import { MemoryIndexStore } from "../../src/indexer/MemoryIndexStore.js";
import { UpstreamBlockSource } from "../../src/indexer/upstream/UpstreamBlockSource.js";
import { upstreamRpc } from "../../src/indexer/upstream/UpstreamRpc.js";
import type { Service } from "../../src/server/startService.js";
import { startTestService } from "../server/harness.js";
import { blockUpdate } from "../support/indexBlockUpdate.js";
import { tokenActivity, TOKEN_ACCOUNTS } from "./rpcActivity.js";

/** A fresh store of one backend; `reopen` gives the same data back from a new instance. */
export interface IndexBackend {
  readonly name: string;
  open(): Promise<{ store: IndexStore; reopen?: () => Promise<IndexStore> }>;
}

const ACCOUNTS = ["a.near", "a.near2", "b.near", "bb.near", "c.near"];
const TOKENS = ["t.near", "t.near2", "u.near"];
const KEYS = ["ed25519:K1", "ed25519:K12", "ed25519:8pchsMqQRdU75ZfzgT4qb8xEvS8uqtgXedbumJEkizEp", "secp256k1:5ftgm7wYK5gtVqq1kxMGy7gSudkrfYCbpsjL6sH1nwx2oj5NR2JktohjzB6fbEhhRERQpiwJcpwnQjxtoX3GS3cQ"];

/** A deterministic pseudo-random sequence of blocks touching every kind of row, deletions and deferred reads included. */
export function randomBlocks(count: number, seed = 7): IndexBlockUpdate[] {
  let x = seed;
  const next = (n: number) => ((x = (x * 1103515245 + 12345) % 2 ** 31), x % n);
  const pick = <T>(xs: readonly T[]): T => {
    const value = xs[next(xs.length)];
    if (value === undefined) throw new RangeError("pick from an empty list");
    return value;
  };
  const balance = () => pick(["0", "10", "5", "", null, (10n ** 30n + BigInt(next(3))).toString()]);
  return Array.from({ length: count }, (_, i) =>
    blockUpdate(i, BigInt(i) * 1_000_000_000n, {
      blockHash: `hash${i}`,
      accountStates: new Map(Array.from({ length: 2 }, () => [pick(ACCOUNTS), next(4) === 0 ? null : { balance: String(next(1000)), locked: "0", storageBytes: next(500) }])),
      accessKeys: Array.from({ length: 2 }, () => ({ publicKey: pick(KEYS), accountId: pick(ACCOUNTS), permission: pick<KeyPermission | null>(["full", "limited", null]) })),
      ft: Array.from({ length: 3 }, () => ({ accountId: pick(ACCOUNTS), contractId: pick(TOKENS), balance: balance(), ...(next(5) === 0 && { deferred: true }) })),
      ftRetries: next(3) === 0 ? [{ accountId: pick(ACCOUNTS), contractId: pick(TOKENS), balance: balance() }] : [],
      nft: next(2) === 0 ? [{ accountId: pick(ACCOUNTS), contractId: pick(TOKENS) }] : [],
      pools: next(3) === 0 ? [{ accountId: pick(ACCOUNTS), poolId: pick(["p.pool", "q.pool"]) }] : [],
      balancesRead: next(2) === 0,
    }),
  );
}

/** Everything a reader answers about these accounts, keys and tokens. */
export async function readAll(reader: IndexReader, accounts = ACCOUNTS, keys = KEYS, tokens = TOKENS) {
  return {
    status: await reader.status(),
    accounts: await Promise.all(accounts.map((id) => reader.account(id))),
    keys: await Promise.all(keys.flatMap((key) => [reader.accountsByKey(key, false), reader.accountsByKey(key, true)])),
    top: await Promise.all(tokens.map((token) => reader.ftTop(token, 3))),
  };
}

export function indexStoreSuite(backends: readonly IndexBackend[]): void {
  // One chain with token, key and account activity, read by both block sources.
  let service: Service;
  let finalHeight: number;
  beforeAll(async () => {
    service = await startTestService();
    await tokenActivity(service.rpcUrl);
    // Blocks on top, so that the activity's last block is final (the upstream source reads final blocks).
    for (let i = 0; i < 3; i++) await service.devChain.fastForward(1);
    finalHeight = service.chain.head().height - 2;
  }, 120_000);
  afterAll(async () => {
    await service?.close();
  });

  const chainKeys = () => TOKEN_ACCOUNTS.map((account) => devKeyPair(account).publicKeyString);
  const chainAccounts = [...TOKEN_ACCOUNTS, "tmp0.test.near", "nobody.test.near"];
  const chainTokens = [FT_ACCOUNT, NFT_ACCOUNT, POOL_ACCOUNT, "nobody.test.near"];

  for (const backend of backends) {
    describe(`${backend.name} index store`, () => {
      it("answers as the in-memory store after every block of a long random sequence", async () => {
        const { store } = await backend.open();
        const memory = new MemoryIndexStore();
        for (const update of randomBlocks(120)) {
          memory.apply(update);
          await store.apply(update);
          expect(await readAll(store)).toEqual(await readAll(memory));
        }
        expect(store.height).toBe(119);
      }, 60_000);

      it("refuses a block at or below its height, and the refused block changes nothing", async () => {
        const { store } = await backend.open();
        const blocks = randomBlocks(5, 3);
        for (const update of blocks) await store.apply(update);
        const before = await readAll(store);
        const again = blockUpdate(4, 99n, { accountStates: new Map([["a.near", null]]) });
        await expect(Promise.resolve().then(() => store.apply(again))).rejects.toThrow(/block 4/);
        expect(await readAll(store)).toEqual(before);
      });

      it("keeps its rows and head across a reopen, and goes on from there", async () => {
        const { store, reopen } = await backend.open();
        if (reopen === undefined) return;
        const memory = new MemoryIndexStore();
        const sequence = randomBlocks(40, 11);
        for (const update of sequence.slice(0, 25)) {
          memory.apply(update);
          await store.apply(update);
        }
        const second = await reopen();
        expect(second.height).toBe(24);
        expect(await readAll(second)).toEqual(await readAll(memory));
        for (const update of sequence.slice(25)) {
          memory.apply(update);
          await second.apply(update);
        }
        expect(await readAll(second)).toEqual(await readAll(memory));
      });

      it("fed by a chain's local commits and by the same chain's JSON-RPC, answers as the in-memory store fed by its commits", async () => {
        const chain = service.chain;
        const local = (await backend.open()).store;
        await indexBlocks(new LocalBlockSource(chain, ftBalanceReaderFrom(viewCallOf(chain))), new IndexBuilder(), local, finalHeight);
        const upstream = (await backend.open()).store;
        await indexBlocks(new UpstreamBlockSource({ call: upstreamRpc(service.rpcUrl) }), new IndexBuilder(UNCAPPED_BALANCE_READS), upstream, finalHeight);
        const reference = new MemoryIndexStore();
        await indexBlocks(new LocalBlockSource(chain, ftBalanceReaderFrom(viewCallOf(chain))), new IndexBuilder(), reference, finalHeight);
        const expected = await readAll(reference, chainAccounts, chainKeys(), chainTokens);
        // The activity reached the index: FT, NFT and pool rows.
        const rows = (kind: "ft" | "nft" | "pools") => expected.accounts.flatMap((a) => a[kind]).length;
        expect([rows("ft"), rows("nft"), rows("pools")].every((n) => n > 0)).toBe(true);
        expect(await readAll(local, chainAccounts, chainKeys(), chainTokens)).toEqual(expected);
        expect(await readAll(upstream, chainAccounts, chainKeys(), chainTokens)).toEqual(expected);
      }, 60_000);
    });
  }
}
