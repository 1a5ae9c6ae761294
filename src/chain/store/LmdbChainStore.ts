import { closeSync, existsSync, fdatasync, fsyncSync, mkdirSync, openSync, rmSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { open, type Database, type Key, type RootDatabase } from "lmdb";
import { base58Decode } from "@shardkit/primitives/base58";
import { blockIndexKeys, type BlockIndexKeys } from "./blockIndexKeys.js";
import {
  CHAIN_STORE_FORMAT,
  ChainStoreError,
  READABLE_CHAIN_STORE_FORMATS,
  type ChainStore,
  type MerkleNode,
  type StoredBlock,
  type StoredGenesis,
} from "./ChainStore.js";
import { lockDataDir } from "./dataDirLock.js";
import { DiskStateStore } from "./DiskStateStore.js";
import type { ForkCache } from "./ForkCache.js";
import { LmdbForkCache } from "./LmdbForkCache.js";
import { merklePositionsCompletedBy } from "./merklePositions.js";
import { decodeRecord, encodeRecord } from "./records/recordEnvelope.js";
import { formatHeaderCodec, heightCodec, type FormatHeader } from "./records/smallRecords.js";
import { storedBlockCodec } from "./records/storedBlockCodec.js";
import { storedGenesisCodec } from "./records/storedGenesisCodec.js";
import { errorMessage } from "@shardkit/primitives/errorMessage";

// Keys are ordered-binary tuples; heights are numbers, so blocks sort (and are appended) by height.
const FORMAT_KEY: Key = ["format"];
const GENESIS_KEY: Key = ["genesis"];
const HEAD_KEY: Key = ["head"];
const blockKey = (height: number): Key => ["b", height];
const hashKey = (hash: string): Key => ["h", hash];
/** Height -> 32-byte block hash (the leaves of the block merkle tree). */
const heightKey = (height: number): Key => ["n", height];
const merkleKey = (level: number, index: number): Key => ["m", level, index];
/** Id -> height, one key prefix per index of a block (see blockIndexKeys). */
const INDEX_PREFIX: Readonly<Record<keyof BlockIndexKeys, string>> = {
  transactions: "t",
  receipts: "r",
  receiptOutcomes: "o",
  dropped: "d",
  chunks: "c",
};
const isIndexName = (name: string): name is keyof BlockIndexKeys => Object.hasOwn(INDEX_PREFIX, name);
const INDEX_NAMES = Object.keys(INDEX_PREFIX).filter(isIndexName);
const indexKey = (name: keyof BlockIndexKeys, id: string): Key => [INDEX_PREFIX[name], id];

/** lmdb's TransactionFlags ABORTABLE | SYNCHRONOUS_COMMIT | NO_SYNC_FLUSH: committed before returning, flushed later. */
const COMMIT_WITHOUT_FLUSH = 0x1 | 0x2 | 0x10000;
/** Present while a genesis is bulk-loaded (unflushed writes): such a data dir is discarded on open. */
const LOADING_MARKER = "genesis-loading";
/** Where a fork keeps what it fetched from its upstream (an LMDB environment of its own). */
export const FORK_CACHE_DIR = "fork-cache";
/** Where a bulk load spills trie nodes. */
const SCRATCH_DIR = "genesis-scratch";

/** Makes a file's creation or removal in `dir` durable. */
function syncDir(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Options of {@link LmdbChainStore.open}. */
export interface LmdbChainStoreOptions {
  /**
   * Take the data dir's writer lock (default true): a second writer is refused with a clear
   * error. Readers that never commit (`state dump`) pass false and may run beside a writer.
   */
  readonly lock?: boolean;
  /** Budget of the trie node cache in estimated heap bytes (DiskStateStore default otherwise). */
  readonly nodeCacheBytes?: number;
}


/**
 * {@link ChainStore} in an LMDB environment on disk (lmdb from npm). LMDB is copy-on-write:
 * a commit is one transaction, readers never see half of one, and there is no log to
 * recover after a crash. Values are versioned Borsh records (records/: an envelope naming the
 * record kind and layout version; format-3 data dirs' V8-serialised records are still read). Each commit is flushed to disk before `commitBlock` returns, together with
 * the trie nodes the block created (see DiskStateStore). A writer holds the data dir's
 * lock file (dataDirLock.ts) until `close`.
 */
export class LmdbChainStore implements ChainStore {
  readonly durable = true;
  /** Height the next block must have (undefined before the genesis is known); saves reading the genesis record per commit. */
  private nextHeight: number | undefined;
  /** Inside withOneFlush: commits leave out their own flush. */
  private deferFlush = false;
  /** Trie nodes by hash (a named database of the same environment: one transaction covers both). */
  private readonly state: DiskStateStore;
  /** A block was committed since open (close then syncs the last meta page, see noMetaSync). */
  private committedSinceOpen = false;
  /** A bulk load wrote the loading marker: the genesis commit removes it. */
  private loading = false;
  /** What forks fetched from their upstreams (its own environment, opened on first use). */
  private forkEntries: RootDatabase<Buffer, Buffer> | undefined;
  /** data.mdb, read-only: withOneFlush syncs it in libuv's pool (fdatasync covers the file, whatever fd wrote it). */
  private readonly dataFile: number;
  /** The flushes withOneFlush started (close waits for them before the file goes). */
  private lastFlush: Promise<void> = Promise.resolve();
  private constructor(
    private readonly db: RootDatabase<Buffer, Key>,
    readonly path: string,
    private readonly unlock: () => void,
    nodeCacheBytes: number | undefined,
  ) {
    const nodes = db.openDB<Buffer, Buffer>({ name: "nodes", encoding: "binary", keyEncoding: "binary", compression: false });
    this.state = new DiskStateStore(nodes, (body) => this.write(body), {
      ...(nodeCacheBytes === undefined ? {} : { cacheBytes: nodeCacheBytes }),
      bulk: {
        scratchDir: join(path, SCRATCH_DIR),
        begin: () => this.beginLoading(),
        write: (body) => this.write(body, COMMIT_WITHOUT_FLUSH),
      },
    });
    this.dataFile = openSync(join(path, "data.mdb"), "r");
  }

  /** Writes the loading marker durably before the first unflushed bulk write. */
  private beginLoading(): void {
    if (this.loading) return;
    if (this.genesis() !== undefined) throw new ChainStoreError(`data dir ${this.path} already holds a chain`);
    try {
      const fd = openSync(join(this.path, LOADING_MARKER), "w");
      try {
        writeSync(fd, `genesis load by process ${process.pid} since ${new Date().toISOString()}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      syncDir(this.path);
    } catch (e) {
      throw new ChainStoreError(`cannot write data dir ${this.path}: ${errorMessage(e)}`, { cause: e });
    }
    this.loading = true;
  }

  /**
   * A data dir whose genesis load never reached its flushed genesis commit (killed, power cut):
   * unflushed writes may be torn, so everything is removed and the next start loads again.
   * Readers (no lock) refuse it instead: a writer may still be loading.
   */
  private static discardUnfinishedLoad(dir: string, locked: boolean): void {
    if (!existsSync(join(dir, LOADING_MARKER))) return;
    if (!locked) throw new ChainStoreError(`data dir ${dir} holds an unfinished genesis load (still running, or interrupted: the next serve starts it again)`);
    for (const name of ["data.mdb", "lock.mdb", SCRATCH_DIR]) rmSync(join(dir, name), { recursive: true, force: true });
    unlinkSync(join(dir, LOADING_MARKER));
    syncDir(dir);
  }

  /**
   * Removes the chain from a data dir no process has open (`shardkit_reset`): its blocks,
   * state and indexes go; the fork cache stays (it belongs to the upstream's block, not to
   * the chain). The next open starts a new chain there.
   */
  static removeChain(dir: string): void {
    try {
      for (const name of ["data.mdb", "lock.mdb", SCRATCH_DIR, LOADING_MARKER]) rmSync(join(dir, name), { recursive: true, force: true });
      syncDir(dir);
    } catch (e) {
      throw new ChainStoreError(`cannot remove the chain from data dir ${dir}: ${errorMessage(e)}`, { cause: e });
    }
  }

  /** Opens (or creates) the store in `dir`; throws ChainStoreError with a clear message on failure. */
  static open(dir: string, options: LmdbChainStoreOptions = {}): LmdbChainStore {
    let db: RootDatabase<Buffer, Key>;
    try {
      mkdirSync(dir, { recursive: true });
    } catch (e) {
      throw new ChainStoreError(`cannot open data dir ${dir}: ${errorMessage(e)}`, { cause: e });
    }
    const unlock = options.lock === false ? () => undefined : lockDataDir(dir);
    try {
      LmdbChainStore.discardUnfinishedLoad(dir, options.lock !== false);
    } catch (e) {
      unlock();
      throw e instanceof ChainStoreError ? e : new ChainStoreError(`cannot open data dir ${dir}: ${errorMessage(e)}`, { cause: e });
    }
    try {
      // noMetaSync: a commit syncs its pages, not the meta page that names it; the next commit syncs that (see README).
      db = open<Buffer, Key>({ path: dir, noSubdir: false, encoding: "binary", overlappingSync: false, noMetaSync: true, compression: false, maxDbs: 4 });
    } catch (e) {
      unlock();
      throw new ChainStoreError(`cannot open data dir ${dir}: ${errorMessage(e)}`, { cause: e });
    }
    let store: LmdbChainStore;
    try {
      // The format check comes first: opening the node database writes its name into a new dir.
      LmdbChainStore.checkFormat(db, dir, options.lock !== false);
      store = new LmdbChainStore(db, dir, unlock, options.nodeCacheBytes);
    } catch (e) {
      void db.close();
      unlock();
      throw e;
    }
    return store;
  }

  stateStore(): DiskStateStore {
    return this.state;
  }

  /**
   * The fork cache has an environment of its own (`fork-cache/` in the data dir): it outlives
   * the chain (`shardkit_reset` throws the chain away and keeps what was fetched).
   */
  forkCache(forkBlockHash: Uint8Array): ForkCache {
    if (this.forkEntries === undefined) {
      try {
        this.forkEntries = open<Buffer, Buffer>({ path: join(this.path, FORK_CACHE_DIR), noSubdir: false, encoding: "binary", keyEncoding: "binary", compression: false });
      } catch (e) {
        throw new ChainStoreError(`cannot open the fork cache in data dir ${this.path}: ${errorMessage(e)}`, { cause: e });
      }
    }
    return new LmdbForkCache(this.forkEntries, forkBlockHash);
  }

  private static checkFormat(db: Database<Buffer, Key>, path: string, writer: boolean): void {
    const raw = db.getBinary(FORMAT_KEY);
    if (raw === undefined) {
      for (const _ of db.getKeys({ limit: 1 })) {
        throw new ChainStoreError(`data dir ${path} holds a database that is not a shardkit chain`);
      }
      const header: FormatHeader = { format: CHAIN_STORE_FORMAT, software: "shardkit" };
      try {
        db.transactionSync(() => db.putSync(FORMAT_KEY, encodeRecord(formatHeaderCodec, header)));
      } catch (e) {
        throw new ChainStoreError(`cannot write data dir ${path}: ${errorMessage(e)}`, { cause: e });
      }
      return;
    }
    let header: FormatHeader;
    try {
      header = decodeRecord(formatHeaderCodec, raw, `data dir ${path}`);
    } catch {
      throw new ChainStoreError(`data dir ${path} has an unreadable format header`);
    }
    if (header.software !== "shardkit" || !READABLE_CHAIN_STORE_FORMATS.includes(header.format)) {
      throw new ChainStoreError(
        `data dir ${path} has store format ${String(header.format)}; this shardkit reads formats ${READABLE_CHAIN_STORE_FORMATS.join(", ")} (use another --data-dir or --ephemeral)`,
      );
    }
    // An older format this shardkit reads: a writer's new records are the current format's.
    if (writer && header.format !== CHAIN_STORE_FORMAT) {
      try {
        db.transactionSync(() => db.putSync(FORMAT_KEY, encodeRecord(formatHeaderCodec, { format: CHAIN_STORE_FORMAT, software: "shardkit" })));
      } catch (e) {
        throw new ChainStoreError(`cannot write data dir ${path}: ${errorMessage(e)}`, { cause: e });
      }
    }
  }

  /** One synchronous, flushed transaction (unflushed inside withOneFlush); disk errors become ChainStoreError. */
  private write(body: () => void, flags?: number): void {
    try {
      if (flags !== undefined) this.db.transactionSync(body, flags);
      else if (this.deferFlush) this.db.transactionSync(body, COMMIT_WITHOUT_FLUSH);
      else this.db.transactionSync(body);
    } catch (e) {
      throw new ChainStoreError(`cannot write data dir ${this.path}: ${errorMessage(e)}`, { cause: e });
    }
  }

  private height(key: Key): number | undefined {
    const raw = this.db.getBinary(key);
    return raw === undefined ? undefined : decodeRecord(heightCodec, raw, `data dir ${this.path}: height under ${JSON.stringify(key)}`);
  }

  genesis(): StoredGenesis | undefined {
    const raw = this.db.getBinary(GENESIS_KEY);
    return raw === undefined ? undefined : decodeRecord(storedGenesisCodec, raw, `data dir ${this.path}: genesis`);
  }

  initGenesis(genesis: StoredGenesis): void {
    if (this.db.getBinary(GENESIS_KEY) !== undefined) throw new ChainStoreError(`data dir ${this.path} already holds a chain`);
    // Tries built in our state store are written with the record, which then needs no entries.
    const roots = genesis.stateRoots;
    const own = roots !== undefined && roots.every((r) => this.state.byRoot(r) !== undefined);
    const bytes = encodeRecord(storedGenesisCodec, own ? { ...genesis, shards: [] } : genesis);
    this.write(() => {
      this.state.writeStaged();
      this.db.putSync(GENESIS_KEY, bytes);
      this.db.putSync(hashKey(genesis.genesisHash), encodeRecord(heightCodec, genesis.config.genesisHeight));
      this.db.putSync(heightKey(genesis.config.genesisHeight), Buffer.from(base58Decode(genesis.genesisHash)));
    });
    this.state.committed();
    // The flushed commit above synced the bulk load's writes too: the chain is whole now.
    if (this.loading) {
      try {
        unlinkSync(join(this.path, LOADING_MARKER));
        syncDir(this.path);
      } catch (e) {
        throw new ChainStoreError(`cannot write data dir ${this.path}: ${errorMessage(e)}`, { cause: e });
      }
      this.loading = false;
    }
  }

  commitBlock(block: StoredBlock, merkleNodes: readonly MerkleNode[]): void {
    if (this.nextHeight === undefined) {
      const genesis = this.genesis();
      if (genesis === undefined) throw new ChainStoreError("commitBlock before initGenesis");
      this.nextHeight = (this.headHeight() ?? genesis.config.genesisHeight) + 1;
    }
    const expected = this.nextHeight;
    if (block.height !== expected) throw new ChainStoreError(`block ${block.height} committed, expected ${expected}`);
    const bytes = encodeRecord(storedBlockCodec, block);
    const height = encodeRecord(heightCodec, block.height);
    const keys = blockIndexKeys(block);
    this.write(() => {
      this.state.writeStaged();
      this.db.putSync(blockKey(block.height), bytes);
      this.db.putSync(hashKey(block.hash), height);
      this.db.putSync(heightKey(block.height), Buffer.from(base58Decode(block.hash)));
      for (const name of INDEX_NAMES) for (const id of keys[name]) this.db.putSync(indexKey(name, id), height);
      for (const n of merkleNodes) this.db.putSync(merkleKey(n.level, n.index), Buffer.from(n.hash));
      this.db.putSync(HEAD_KEY, height);
    });
    this.state.committed();
    this.nextHeight = block.height + 1;
    this.committedSinceOpen = true;
  }

  truncateAbove(height: number): void {
    const genesis = this.genesis();
    if (genesis === undefined) throw new ChainStoreError("truncateAbove before initGenesis");
    const dropped = [...this.blocksFrom(height + 1)];
    if (dropped.length === 0) return;
    const g = genesis.config.genesisHeight;
    this.write(() => {
      for (const block of dropped) {
        const keys = blockIndexKeys(block);
        this.db.removeSync(blockKey(block.height));
        this.db.removeSync(hashKey(block.hash));
        this.db.removeSync(heightKey(block.height));
        for (const name of INDEX_NAMES) for (const id of keys[name]) this.db.removeSync(indexKey(name, id));
        for (const p of merklePositionsCompletedBy(block.height - g)) this.db.removeSync(merkleKey(p.level, p.index));
      }
      if (height > genesis.config.genesisHeight) this.db.putSync(HEAD_KEY, encodeRecord(heightCodec, height));
      else this.db.removeSync(HEAD_KEY);
    });
    this.nextHeight = Math.max(height, genesis.config.genesisHeight) + 1;
  }

  async withOneFlush<T>(body: () => T): Promise<T> {
    if (this.deferFlush) return body();
    this.deferFlush = true;
    try {
      return body();
    } finally {
      this.deferFlush = false;
      await this.flushOffThread();
    }
  }

  /**
   * Makes every commit so far durable, the last one's meta page included (noMetaSync), with an
   * fdatasync of data.mdb in libuv's pool: the event loop serves requests meanwhile.
   */
  private flushOffThread(): Promise<void> {
    const flushed = new Promise<void>((resolve, reject) =>
      fdatasync(this.dataFile, (e) => (e ? reject(new ChainStoreError(`cannot write data dir ${this.path}: ${errorMessage(e)}`, { cause: e })) : resolve())),
    );
    this.lastFlush = Promise.all([this.lastFlush, flushed.catch(() => undefined)]).then(() => undefined);
    return flushed;
  }

  headHeight(): number | undefined {
    return this.height(HEAD_KEY);
  }

  block(height: number): StoredBlock | undefined {
    if (!Number.isInteger(height)) return undefined;
    const raw = this.db.getBinary(blockKey(height));
    return raw === undefined ? undefined : this.decodeBlock(raw, height);
  }

  *blocksFrom(height: number): Iterable<StoredBlock> {
    for (const { key, value } of this.db.getRange({ start: blockKey(height), end: blockKey(Number.MAX_SAFE_INTEGER) })) {
      const height = Array.isArray(key) ? key[1] : undefined;
      if (typeof height !== "number") throw new ChainStoreError(`data dir ${this.path}: block key ${JSON.stringify(key)} holds no height`);
      yield this.decodeBlock(value, height);
    }
  }

  private decodeBlock(raw: Uint8Array, height: number): StoredBlock {
    return decodeRecord(storedBlockCodec, raw, `data dir ${this.path}: block ${height}`);
  }

  heightOfBlock(hash: string): number | undefined {
    return this.height(hashKey(hash));
  }

  heightOfTransaction(hash: string): number | undefined {
    return this.height(indexKey("transactions", hash));
  }

  heightOfReceipt(id: string): number | undefined {
    return this.height(indexKey("receipts", id));
  }

  heightOfReceiptOutcome(id: string): number | undefined {
    return this.height(indexKey("receiptOutcomes", id));
  }

  heightOfDroppedTransaction(hash: string): number | undefined {
    return this.height(indexKey("dropped", hash));
  }

  heightOfChunk(hash: string): number | undefined {
    return this.height(indexKey("chunks", hash));
  }

  blockHashAt(height: number): Uint8Array | undefined {
    return Number.isSafeInteger(height) ? this.db.getBinary(heightKey(height)) : undefined;
  }

  merkleNode(level: number, index: number): Uint8Array | undefined {
    return this.db.getBinary(merkleKey(level, index));
  }

  async close(): Promise<void> {
    try {
      // With noMetaSync the last commit's meta page is synced by the next commit: make one (it restates the head).
      const head = this.committedSinceOpen ? this.headHeight() : undefined;
      try {
        if (head !== undefined) this.write(() => this.db.putSync(HEAD_KEY, encodeRecord(heightCodec, head)));
      } catch {
        // A data dir that refuses writes (full, read-only) already failed a commit, which was reported; close it anyway.
      }
      await this.lastFlush;
      closeSync(this.dataFile);
      await this.forkEntries?.close();
      await this.db.close();
    } finally {
      this.unlock();
    }
  }
}
