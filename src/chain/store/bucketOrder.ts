import { at, int32At } from "../must.js";
/**
 * A node bucket's records (hash (32 bytes) ‖ u32le length ‖ encoding, see NodeBuckets) in hash
 * order, each distinct hash once: the offsets of the records to visit. Pure, so it can run on
 * a worker thread (bucketOrderWorker.ts) while the loader writes the previous bucket.
 */
/** Bytes of a node hash, the first field of a bucket record. */
export const HASH = 32;
/** Entries are sorted as (32-bit hash prefix, index) packed into one double: indexes below 2^21. */
const INDEX_BITS = 21;

/** A node bucket with the offsets of its distinct records in hash order. */
export interface OrderedBucket {
  readonly data: Buffer;
  readonly order: Int32Array;
}

/** Worker requests and answers of WorkerBucketOrder: a bucket's bytes, moved to the worker and back with their order. */
export interface BucketOrderRequest {
  readonly buffer: ArrayBuffer;
  readonly length: number;
}
export type BucketOrderAnswer = (BucketOrderRequest & { readonly order: Int32Array<ArrayBuffer> }) | { readonly error: string };

export function bucketOrder(data: Buffer): Int32Array<ArrayBuffer> {
  const offsets: number[] = [];
  for (let off = 0; off < data.length; off += HASH + 4 + data.readUInt32LE(off + HASH)) offsets.push(off);
  const n = offsets.length;
  if (n >= 2 ** INDEX_BITS) throw new RangeError(`node bucket of ${n} entries is too large to sort`);
  // The first byte is the bucket; bytes 1-4 order almost everything, exact ties are fixed below.
  const packed = new Float64Array(n);
  for (let i = 0; i < n; i++) packed[i] = data.readUInt32BE(at(offsets, i) + 1) * 2 ** INDEX_BITS + i;
  packed.sort();
  const order = new Int32Array(n);
  let i = 0;
  for (const p of packed) order[i++] = p % 2 ** INDEX_BITS;
  const prefix = (i: number) => data.readUInt32BE(at(offsets, int32At(order, i)) + 1);
  // Bytes 1-31 (byte 0 is the bucket): orders ties and finds repeats.
  const compare = (x: number, y: number) => data.compare(data, at(offsets, y) + 1, at(offsets, y) + HASH, at(offsets, x) + 1, at(offsets, x) + HASH);
  for (let i = 0; i < n; ) {
    let j = i + 1;
    while (j < n && prefix(j) === prefix(i)) j++;
    if (j - i > 1) {
      const tie = Array.from(order.subarray(i, j)).sort(compare);
      order.set(tie, i);
    }
    i = j;
  }
  const distinct = new Int32Array(n);
  let count = 0;
  let previous = -1;
  let previousPrefix = -1;
  for (let i = 0; i < n; i++) {
    const p = data.readUInt32BE(at(offsets, int32At(order, i)) + 1);
    // A repeat (identical node) has the same prefix as the node before it: compare just then.
    if (p === previousPrefix && compare(previous, int32At(order, i)) === 0) continue;
    previous = int32At(order, i);
    previousPrefix = p;
    distinct[count++] = at(offsets, int32At(order, i));
  }
  return distinct.slice(0, count);
}

/** Visits the records at `order` (from bucketOrder): views into `data`, valid during the visit. */
export function visitInOrder(data: Buffer, order: Int32Array, visit: (hash: Buffer, encoding: Buffer) => void): void {
  for (let i = 0; i < order.length; i++) {
    const off = int32At(order, i);
    const length = data.readUInt32LE(off + HASH);
    visit(data.subarray(off, off + HASH), data.subarray(off + HASH + 4, off + HASH + 4 + length));
  }
}
