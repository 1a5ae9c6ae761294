import type { Database } from "lmdb";
import { bytesToLatin1, latin1ToBytes } from "../primitives/latin1.js";
import { applyChanges, type SortedChanges } from "./applyChanges.js";
import { BulkTrieLoad, type BulkWriter } from "./BulkTrieLoad.js";
import { NodeCache, type CacheEntry } from "./NodeCache.js";
import { encodeNode, nodeHash } from "./nodeEncoding.js";
import type { StateSnapshot, StateStore } from "./stateStore.js";
import { decodeStoredNode, placeNode, storedNodeSize, type StoredNode } from "./storedNode.js";
import { Trie } from "./Trie.js";
import { TrieSnapshot } from "./TrieSnapshot.js";
import { BranchNode, ExtensionNode, HashNode, type LoadedNode, type NodePath, type NodeSource, type TrieNode } from "./trieNode.js";
import { at, must } from "../must.js";

const EMPTY_ROOT = new Uint8Array(32);

/** Default node cache budget (estimated heap bytes of decoded nodes). */
export const DEFAULT_NODE_CACHE_BYTES = 128 * 1024 * 1024;

/** Genesis entries per batch in {@link DiskStateStore.build}: bounds the nodes held in memory at once. */
export const BUILD_BATCH = 100_000;

/** A root of the disk store: fresh nodes until its commit is written, a reference afterwards. */
class DiskSnapshot extends TrieSnapshot {
  constructor(
    readonly owner: DiskStateStore,
    root: TrieNode | null,
    readonly rootHash: Uint8Array,
  ) {
    super(Trie.of(root));
  }
}

/**
 * {@link StateStore} whose trie nodes live in an LMDB database, keyed by their hash (the
 * sha256 of the canonical encoding, which is also what is stored). Nodes are immutable and
 * shared by every root that reaches them, so a write never changes a stored node and no
 * reference counts are kept. GC policy: none; the chain is archival (every block's state
 * stays readable), and the sole unreachable nodes are the superseded spines of genesis
 * batches and the nodes of a block whose commit failed.
 *
 * Reads are synchronous: a walk that reaches a {@link HashNode} loads it through a cache of
 * decoded nodes (least recently used out first, bounded by estimated bytes), so neither the
 * state size nor the history is bounded by the JS heap.
 *
 * Writes are staged: `commit` and `build` return snapshots over fresh in-memory nodes and
 * remember them; the owning chain store calls `writeStaged` inside its per-block transaction
 * (so nodes and block land atomically) and `committed` once it is durable, after which the
 * snapshots drop their fresh nodes for a reference to their root.
 */
export class DiskStateStore implements StateStore, NodeSource {
  private readonly cache: NodeCache<StoredNode>;
  /** Encodings of nodes not yet written, by hash. */
  private staged = new Map<string, Buffer>();
  /** Snapshots whose fresh nodes are staged. */
  private pending: DiskSnapshot[] = [];
  private readonly emptySnapshot = new DiskSnapshot(this, null, EMPTY_ROOT);
  /** Loads from disk since open (cache misses that reached LMDB). */
  diskReads = 0;
  private readonly buildBatch: number;
  private readonly bulk: BulkWriter | undefined;

  constructor(
    private readonly nodes: Database<Buffer, Buffer>,
    /** Runs `body` as one synchronous, flushed write transaction (bulk builds; reads inside see its writes). */
    private readonly writeTransaction: (body: () => void) => void,
    options: { readonly cacheBytes?: number; readonly buildBatch?: number; readonly bulk?: BulkWriter } = {},
  ) {
    this.bulk = options.bulk;
    this.cache = new NodeCache(options.cacheBytes ?? DEFAULT_NODE_CACHE_BYTES);
    this.buildBatch = options.buildBatch ?? BUILD_BATCH;
  }

  // ---- NodeSource ------------------------------------------------------------------------

  load(ref: HashNode, path: string | NodePath, depth: number): LoadedNode {
    // A reference walked before holds its cache entry: no lookup by hash while it is cached.
    const held = ref.held;
    const stored = (held === undefined ? undefined : this.cache.use(held)) ?? this.lookup(ref, path, depth);
    return placeNode(stored, ref.hash, path, depth);
  }

  /** The node `ref` names, from the cache or else from LMDB (decoded where it is reached); `ref` then holds its cache entry. */
  private lookup(ref: HashNode, path: string | NodePath, depth: number): StoredNode {
    const hash = ref.hash;
    let entry = this.cache.entry(hash);
    if (entry === undefined) {
      const bytes = this.nodes.getBinaryFast(Buffer.from(hash, "latin1"));
      if (bytes === undefined) {
        throw new Error(`trie node ${Buffer.from(hash, "latin1").toString("hex")} is missing from the data dir`);
      }
      this.diskReads++;
      const stored = decodeStoredNode(bytes, hash, this, path, depth);
      entry = this.cache.add(hash, stored, storedNodeSize(stored, bytes.length));
      // Too big to cache (a budget smaller than two nodes): used once, not held.
      if (entry === undefined) {
        ref.held = undefined;
        return stored;
      }
    }
    ref.held = entry;
    return must(entry.value, "the trie node just cached");
  }

  // ---- StateStore ------------------------------------------------------------------------

  empty(): StateSnapshot {
    return this.emptySnapshot;
  }

  /**
   * Bulk-loads strictly increasing keys in batches of {@link BUILD_BATCH}: each batch is
   * applied to the root so far, put into one write transaction that spans the whole build and
   * dropped from memory (later batches read it back through that transaction). The last
   * batch stays staged for the caller's commit (the genesis record). One transaction because
   * node keys are hashes, so every batch touches pages all over the B-tree: a transaction per
   * batch would copy most of the database each time.
   */
  build(keys: readonly string[], values: readonly string[]): StateSnapshot {
    if (keys.length !== values.length) throw new RangeError("keys and values differ in length");
    for (let i = 1; i < keys.length; i++) {
      if (!(at(keys, i - 1) < at(keys, i))) throw new RangeError(`keys not strictly increasing at index ${i}`);
    }
    let snapshot: StateSnapshot = this.emptySnapshot;
    const apply = (lo: number) => {
      const hi = Math.min(keys.length, lo + this.buildBatch);
      snapshot = this.commit(snapshot, { keys: keys.slice(lo, hi), values: values.slice(lo, hi) });
    };
    const last = keys.length === 0 ? 0 : Math.floor((keys.length - 1) / this.buildBatch) * this.buildBatch;
    if (last > 0) {
      this.writeTransaction(() => {
        for (let lo = 0; lo < last; lo += this.buildBatch) {
          apply(lo);
          this.writeStaged();
          this.committed({ cacheWritten: false });
        }
      });
    }
    if (keys.length > 0) apply(last);
    return snapshot;
  }

  /**
   * Starts a streamed bulk load of per-shard tries (genesis files), or returns undefined when this
   * store was opened without a bulk writer. Its roots are read back with {@link byRoot} once it
   * finished.
   */
  bulkLoad(options: { readonly bucketMemory?: number } = {}): BulkTrieLoad | undefined {
    return this.bulk === undefined ? undefined : new BulkTrieLoad(this.nodes, this, this.bulk, options);
  }

  commit(base: StateSnapshot, changes: SortedChanges): StateSnapshot {
    if (!(base instanceof DiskSnapshot) || base.owner !== this) throw new TypeError("snapshot belongs to another store");
    if (changes.keys.length === 0) return base;
    const { keys, values } = changes;
    if (keys.length !== values.length) throw new RangeError("keys and values differ in length");
    for (let i = 1; i < keys.length; i++) {
      if (!(at(keys, i - 1) < at(keys, i))) throw new RangeError(`change keys not strictly increasing at index ${i}`);
    }
    const root = applyChanges(base.trie.root, changes);
    if (root === base.trie.root) return base;
    if (root === null) return this.emptySnapshot;
    const hash = nodeHash(root);
    this.stage(root);
    const snapshot = new DiskSnapshot(this, root, latin1ToBytes(hash));
    this.pending.push(snapshot);
    return snapshot;
  }

  byRoot(rootHash: Uint8Array): StateSnapshot | undefined {
    if (rootHash.length !== 32) return undefined;
    if (rootHash.every((b) => b === 0)) return this.emptySnapshot;
    const hash = bytesToLatin1(rootHash);
    const fresh = this.pending.find((s) => bytesToLatin1(s.rootHash) === hash);
    if (fresh !== undefined) return fresh;
    if (!this.cache.has(hash) && this.nodes.getBinaryFast(Buffer.from(hash, "latin1")) === undefined) return undefined;
    return new DiskSnapshot(this, new HashNode(hash, this), rootHash.slice());
  }

  // ---- writes ----------------------------------------------------------------------------

  /** Number of staged nodes (written by the next commit). */
  get stagedNodes(): number {
    return this.staged.size;
  }

  /** Puts every staged node; call inside the owner's write transaction. */
  writeStaged(): void {
    for (const [hash, bytes] of this.staged) this.nodes.putSync(Buffer.from(hash, "latin1"), bytes);
  }

  /**
   * The transaction holding the staged nodes is durable: snapshots switch to references and
   * the written nodes enter the cache (the next block reads the same paths).
   */
  committed(options: { readonly cacheWritten?: boolean } = {}): void {
    if (options.cacheWritten !== false) {
      for (const [hash, bytes] of this.staged) {
        const stored = decodeStoredNode(bytes, hash, this);
        this.cache.set(hash, stored, storedNodeSize(stored, bytes.length));
      }
    }
    for (const snapshot of this.pending) {
      snapshot.trie = Trie.of(new HashNode(bytesToLatin1(snapshot.rootHash), this));
    }
    this.staged = new Map();
    this.pending = [];
  }

  /** Stages every fresh node under `node` (references and known nodes end the walk). */
  private stage(node: TrieNode): void {
    if (node instanceof HashNode) return;
    const hash = nodeHash(node);
    if (this.staged.has(hash) || this.cache.has(hash)) return;
    const bytes = encodeNode(node);
    this.staged.set(hash, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    if (node instanceof ExtensionNode) this.stage(node.child);
    else if (node instanceof BranchNode) for (const child of node.children) this.stage(child);
  }

  /** Cache figures (bench and tests). */
  cacheStats(): { entries: number; bytes: number; hits: number; misses: number; diskReads: number } {
    return { entries: this.cache.size, bytes: this.cache.bytes, hits: this.cache.hits, misses: this.cache.misses, diskReads: this.diskReads };
  }
}
