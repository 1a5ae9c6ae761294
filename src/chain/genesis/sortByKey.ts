import { at, int32At } from "../must.js";
const SMALL = 48;

/**
 * Sorts `order` (indices into `keys`, latin1 strings) by raw byte order of the keys, in
 * place. MSD radix sort: one counting pass per byte position, so long shared prefixes
 * (every data key of a contract starts with 0x09 ‖ account ‖ ',') cost a linear pass each
 * instead of being re-compared in every comparison; small buckets finish with insertion
 * sort. About 3x faster than Array#sort with a comparator on 10^6 random keys.
 */
export function sortByKey(keys: readonly string[], order: Int32Array): void {
  // State dumps arrive in trie order: detect that in one pass and keep it.
  let sorted = true;
  for (let i = 1; i < order.length && sorted; i++) sorted = at(keys, int32At(order, i - 1)) <= at(keys, int32At(order, i));
  if (!sorted) radix(keys, order, new Int32Array(order.length), 0, order.length, 0);
}

function radix(keys: readonly string[], order: Int32Array, tmp: Int32Array, lo: number, hi: number, depth: number): void {
  for (;;) {
    if (hi - lo <= SMALL) {
      insertionSort(keys, order, lo, hi);
      return;
    }
    // Bucket 0: key ends at `depth`; bucket b + 1: next byte is b.
    const counts = new Int32Array(258);
    for (let i = lo; i < hi; i++) {
      const k = at(keys, int32At(order, i));
      counts[depth < k.length ? k.charCodeAt(depth) + 2 : 1]!++;
    }
    // All keys share this byte (or all end here): go one byte deeper without moving.
    let single = -1;
    for (let b = 1; b < 258; b++) {
      const c = int32At(counts, b);
      if (c === 0) continue;
      single = c === hi - lo ? b : -2;
      break;
    }
    if (single === 1) return; // identical keys: nothing left to order
    if (single > 1) {
      depth++;
      continue;
    }
    // Scatter into buckets through `tmp`, then recurse into each bucket of size > 1.
    for (let b = 1; b < 258; b++) counts[b] = int32At(counts, b) + int32At(counts, b - 1);
    for (let i = hi - 1; i >= lo; i--) {
      const k = at(keys, int32At(order, i));
      const b = depth < k.length ? k.charCodeAt(depth) + 2 : 1;
      tmp[lo + --counts[b]!] = int32At(order, i);
    }
    order.set(tmp.subarray(lo, hi), lo);
    // After the scatter, counts[b] is the start offset of bucket b; bucket 1 (ended keys)
    // holds identical strings and needs no further ordering.
    for (let b = 2; b < 258; b++) {
      const start = lo + int32At(counts, b);
      const end = b + 1 < 258 ? lo + int32At(counts, b + 1) : hi;
      if (end - start > 1) radix(keys, order, tmp, start, end, depth + 1);
    }
    return;
  }
}

function insertionSort(keys: readonly string[], order: Int32Array, lo: number, hi: number): void {
  for (let i = lo + 1; i < hi; i++) {
    const v = int32At(order, i);
    const k = at(keys, v);
    let j = i - 1;
    while (j >= lo && at(keys, int32At(order, j)) > k) {
      order[j + 1] = int32At(order, j);
      j--;
    }
    order[j + 1] = v;
  }
}
