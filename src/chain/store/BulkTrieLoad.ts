import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "lmdb";
import { WorkerBucketOrder } from "./WorkerBucketOrder.js";
import { NodeBuckets } from "./NodeBuckets.js";
import { StreamTrieBuilder } from "./StreamTrieBuilder.js";
import type { NodeSource } from "./trieNode.js";
import { at } from "../must.js";

/** What a bulk load needs from the store that owns the node database. */
export interface BulkWriter {
  /** Directory for spilled nodes (created when needed, removed at the end). */
  readonly scratchDir: string;
  /**
   * Called once before the first write: marks the data dir as loading, durably, so a load cut
   * short (even by a power loss in the middle of an unflushed write) is discarded on the next
   * open instead of being read. The store's next flushed commit (the genesis record) ends it.
   */
  begin(): void;
  /** One write transaction committed without a flush (the final flushed commit syncs them all). */
  write(body: () => void): void;
}

/** Progress of a bulk load's writes: buckets of nodes written (of 256) and nodes so far. */
export interface BulkLoadProgress {
  readonly buckets: number;
  readonly nodes: number;
}

/**
 * Genesis-scale trie load into the node database in bounded memory: each shard's strictly
 * increasing keys go through a {@link StreamTrieBuilder} (memory bounded by trie depth), its
 * finished nodes into {@link NodeBuckets} (bounded, spilled to scratch files), and at the end
 * the nodes are put in hash order, one unflushed transaction per bucket, appended when the
 * database was empty. Compared with putting nodes as they are made, in hash (= random) order
 * into one transaction: ~5x fewer CPU seconds per node on LMDB's side, no multi-GB dirty page
 * list, and pages filled completely.
 */
export class BulkTrieLoad {
  private readonly builders: StreamTrieBuilder[] = [];
  private readonly buckets: NodeBuckets;
  private readonly sink = (hash: string, encoding: Uint8Array) => this.buckets.add(hash, encoding);

  constructor(
    private readonly nodes: Database<Buffer, Buffer>,
    private readonly source: NodeSource,
    private readonly writer: BulkWriter,
    options: { readonly bucketMemory?: number } = {},
  ) {
    writer.begin();
    this.buckets = new NodeBuckets(join(writer.scratchDir, "nodes"), options.bucketMemory);
  }

  /** Scratch directory the caller may use for its own files during the load (removed with the load's). */
  get scratchDir(): string {
    return this.writer.scratchDir;
  }

  /** Adds a key of shard number `shard` (keys strictly increasing per shard). */
  add(shard: number, key: string, value: string): void {
    let builder = this.builders[shard];
    if (builder === undefined) {
      if (!Number.isInteger(shard) || shard < 0) throw new RangeError(`bad shard index ${shard}`);
      while (this.builders.length <= shard) this.builders.push(new StreamTrieBuilder(this.sink, this.source));
      builder = at(this.builders, shard);
    }
    builder.add(key, value);
  }

  /** Writes every node; returns the root hash of shards 0..shards-1 (32 zero bytes for an empty one). */
  async finish(shards: number, progress?: (p: BulkLoadProgress) => void): Promise<Uint8Array[]> {
    try {
      if (this.builders.length > shards) throw new RangeError(`keys for shard ${this.builders.length - 1} of ${shards}`);
      const roots = Array.from({ length: shards }, (_, i) => {
        const root = this.builders[i]?.finish();
        return root === undefined ? new Uint8Array(32) : new Uint8Array(Buffer.from(root, "latin1"));
      });
      let empty = true;
      for (const _ of this.nodes.getKeys({ limit: 1 })) empty = false;
      const put = empty ? { append: true } : {};
      let written = 0;
      progress?.({ buckets: 0, nodes: 0 });
      const sorter = new WorkerBucketOrder();
      try {
        await this.buckets.forEachBucket(
          async (forEachNode, bucket) => {
            this.writer.write(() =>
              forEachNode((hash, encoding) => {
                this.nodes.putSync(hash, encoding, put);
                written++;
              }),
            );
            if (bucket % 16 === 15) {
              progress?.({ buckets: bucket + 1, nodes: written });
              await new Promise<void>((resolve) => setImmediate(resolve)); // lets a progress line redraw
            }
          },
          (data) => sorter.order(data),
        );
      } finally {
        await sorter.close();
      }
      return roots;
    } finally {
      this.abort();
    }
  }

  /** Keys fed so far over all shards. */
  get keys(): number {
    let n = 0;
    for (const b of this.builders) n += b.count;
    return n;
  }

  /** Drops the scratch files (a load that will not finish: the data dir stays marked as loading). */
  abort(): void {
    this.buckets.dispose();
    rmSync(this.writer.scratchDir, { recursive: true, force: true });
  }
}
