import { appendFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

/** Bytes of node records held in memory before every bucket is appended to its file. */
export const DEFAULT_NODE_BUCKET_MEMORY = 64 * 1024 * 1024;
const HASH = 32;
/** Bucket entries are sorted as (32-bit hash prefix, index) packed into one double: indexes below 2^21. */
const INDEX_BITS = 21;

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
    let buf = this.buffers[b]!;
    const at = this.fill[b]!;
    if (at + need > buf.length) {
      const grown = Buffer.allocUnsafe(Math.max(4096, 2 * buf.length, at + need));
      buf.copy(grown, 0, 0, at);
      this.buffers[b] = buf = grown;
    }
    for (let i = 0; i < HASH; i++) buf[at + i] = hash.charCodeAt(i);
    buf.writeUInt32LE(encoding.length, at + HASH);
    buf.set(encoding, at + HASH + 4);
    this.fill[b] = at + need;
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
      const n = this.fill[b]!;
      if (n === 0) continue;
      appendFileSync(this.file(b), this.buffers[b]!.subarray(0, n));
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
   * buckets together give every node once, in global hash order.
   */
  async forEachBucket(
    body: (forEachNode: (visit: (hash: Buffer, encoding: Buffer) => void) => void, bucket: number) => void | Promise<void>,
  ): Promise<void> {
    for (let b = 0; b < 256; b++) {
      let data = this.buffers[b]!.subarray(0, this.fill[b]!);
      if (this.onDisk[b] === 1) data = Buffer.concat([readFileSync(this.file(b)), data]);
      this.buffers[b] = Buffer.allocUnsafe(0);
      await body((visit) => visitSorted(data, visit), b);
    }
  }

  /** Removes the scratch files. */
  dispose(): void {
    if (this.dirMade) rmSync(this.dir, { recursive: true, force: true });
    this.buffers.length = 0;
  }
}

/** Visits the records of one bucket in hash order, each hash once (identical nodes repeat it). */
function visitSorted(data: Buffer, visit: (hash: Buffer, encoding: Buffer) => void): void {
  const offsets: number[] = [];
  for (let off = 0; off < data.length; off += HASH + 4 + data.readUInt32LE(off + HASH)) offsets.push(off);
  const n = offsets.length;
  if (n >= 2 ** INDEX_BITS) throw new RangeError(`node bucket of ${n} entries is too large to sort`);
  // The first byte is the bucket; bytes 1-4 order almost everything, exact ties are fixed below.
  const packed = new Float64Array(n);
  for (let i = 0; i < n; i++) packed[i] = data.readUInt32BE(offsets[i]! + 1) * 2 ** INDEX_BITS + i;
  packed.sort();
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = packed[i]! % 2 ** INDEX_BITS;
  const prefix = (i: number) => data.readUInt32BE(offsets[order[i]!]! + 1);
  // Bytes 1-31 (byte 0 is the bucket): orders ties and finds repeats.
  const compare = (x: number, y: number) => data.compare(data, offsets[y]! + 1, offsets[y]! + HASH, offsets[x]! + 1, offsets[x]! + HASH);
  for (let i = 0; i < n; ) {
    let j = i + 1;
    while (j < n && prefix(j) === prefix(i)) j++;
    if (j - i > 1) {
      const tie = Array.from(order.subarray(i, j)).sort(compare);
      order.set(tie, i);
    }
    i = j;
  }
  let previous = -1;
  let previousPrefix = -1;
  for (let i = 0; i < n; i++) {
    const off = offsets[order[i]!]!;
    const p = data.readUInt32BE(off + 1);
    // A repeat (identical node) has the same prefix as the node before it: compare just then.
    if (p === previousPrefix && compare(previous, order[i]!) === 0) continue;
    previous = order[i]!;
    previousPrefix = p;
    const length = data.readUInt32LE(off + HASH);
    visit(data.subarray(off, off + HASH), data.subarray(off + HASH + 4, off + HASH + 4 + length));
  }
}
