import { appendFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { bucketOrder, HASH, visitInOrder, type OrderedBucket } from "./bucketOrder.js";
import { at, int32At } from "../must.js";

/** Bytes of node records held in memory before every bucket is appended to its file. */
export const DEFAULT_NODE_BUCKET_MEMORY = 64 * 1024 * 1024;

/**
 * Orders trie nodes by hash for a bulk load without holding them all: nodes are split by the
 * first byte of their hash into 256 buckets (hashes are uniform, so the buckets are even),
 * kept in memory up to a budget and appended to one scratch file per bucket beyond it. Read
 * back bucket by bucket, each sorted in memory, they come out in global hash order: what
 * LMDB appends at full speed (keys in order fill pages sequentially; random keys split pages
 * all over the B-tree).
 *
 * A record is hash (32 bytes) ‖ u32le length ‖ encoding.
 */
export class NodeBuckets {
  private readonly buffers: Buffer[] = [];
  private readonly fill = new Int32Array(256);
  private readonly onDisk = new Uint8Array(256);
  private memory = 0;
  private dirMade = false;
  /** Nodes added (duplicates included). */
  added = 0;

  constructor(
    private readonly dir: string,
    private readonly memoryBudget = DEFAULT_NODE_BUCKET_MEMORY,
  ) {
    for (let b = 0; b < 256; b++) this.buffers.push(Buffer.allocUnsafe(0));
  }

  add(hash: string, encoding: Uint8Array): void {
    const b = hash.charCodeAt(0);
    const need = HASH + 4 + encoding.length;
    let buf = at(this.buffers, b);
    const end = int32At(this.fill, b);
    if (end + need > buf.length) {
      const grown = Buffer.allocUnsafe(Math.max(4096, 2 * buf.length, end + need));
      buf.copy(grown, 0, 0, end);
      this.buffers[b] = buf = grown;
    }
    for (let i = 0; i < HASH; i++) buf[end + i] = hash.charCodeAt(i);
    buf.writeUInt32LE(encoding.length, end + HASH);
    buf.set(encoding, end + HASH + 4);
    this.fill[b] = end + need;
    this.memory += need;
    this.added++;
    if (this.memory > this.memoryBudget) this.spill();
  }

  private spill(): void {
    if (!this.dirMade) {
      mkdirSync(this.dir, { recursive: true });
      this.dirMade = true;
    }
    for (let b = 0; b < 256; b++) {
      const n = int32At(this.fill, b);
      if (n === 0) continue;
      appendFileSync(this.file(b), at(this.buffers, b).subarray(0, n));
      this.onDisk[b] = 1;
      this.fill[b] = 0;
      // Shrink: the next round of this bucket regrows from small buffers, so memory stays at the budget.
      this.buffers[b] = Buffer.allocUnsafe(0);
    }
    this.memory = 0;
  }

  private file(b: number): string {
    return join(this.dir, b.toString(16).padStart(2, "0"));
  }

  /**
   * Runs `body` for each bucket in order; its `forEachNode` visits the bucket's distinct nodes
   * in increasing hash order (views into the bucket's buffer, valid during the visit), so all
   * buckets together give every node once, in global hash order. `order` sorts a bucket
   * (bucketOrder, here or on a worker thread: WorkerBucketOrder); the next bucket is read and
   * handed to it before `body` runs, so a worker sorts it while `body` writes this one.
   */
  async forEachBucket(
    body: (forEachNode: (visit: (hash: Buffer, encoding: Buffer) => void) => void, bucket: number) => void | Promise<void>,
    order: (data: Buffer) => OrderedBucket | Promise<OrderedBucket> = (data) => ({ data, order: bucketOrder(data) }),
  ): Promise<void> {
    const load = (b: number): Promise<OrderedBucket> => {
      let data = at(this.buffers, b).subarray(0, int32At(this.fill, b));
      if (this.onDisk[b] === 1) data = Buffer.concat([readFileSync(this.file(b)), data]);
      this.buffers[b] = Buffer.allocUnsafe(0);
      const ordered = Promise.resolve(order(data));
      ordered.catch(() => {}); // awaited below; a failure while the previous bucket is written is not unhandled
      return ordered;
    };
    let next = load(0);
    for (let b = 0; b < 256; b++) {
      const { data, order: offsets } = await next;
      if (b < 255) next = load(b + 1);
      await body((visit) => visitInOrder(data, offsets, visit), b);
    }
  }

  /** Removes the scratch files. */
  dispose(): void {
    if (this.dirMade) rmSync(this.dir, { recursive: true, force: true });
    this.buffers.length = 0;
  }
}
