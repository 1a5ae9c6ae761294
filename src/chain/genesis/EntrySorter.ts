import { closeSync, mkdirSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { entryRecordSize, writeEntryRecord } from "./entryRecords.js";
import { sortByKey } from "./sortByKey.js";
import { at, int32At } from "../must.js";

/** Key and value characters (latin1: bytes) held in memory before a sorted run goes to disk. */
export const DEFAULT_RUN_BYTES = 64 * 1024 * 1024;
/** Per-entry overhead counted against the run budget (two strings, two array slots, two ints). */
const ENTRY_OVERHEAD = 64;
const READ_CHUNK = 1 << 20;

/** One trie entry of a genesis with where it came from. */
export interface SortedEntry {
  readonly key: string;
  readonly value: string;
  /** Index of the record that wrote it (error messages). */
  readonly record: number;
  /** Ordinal of the account it belongs to (its shard). */
  readonly owner: number;
}

/**
 * External sort of genesis trie entries by key (raw byte order) in bounded memory: entries
 * are collected up to a budget, sorted (radix, sortByKey) and written to a scratch file as a
 * sorted run; `sorted()` merges the runs with a binary heap. A genesis that fits the budget
 * never touches the disk. Runs are files of entry records (entryRecords.ts).
 */
export class EntrySorter {
  private keys: string[] = [];
  private values: string[] = [];
  private records: number[] = [];
  private owners: number[] = [];
  private bytes = 0;
  private readonly runs: string[] = [];
  private dirMade = false;
  /** Entries added. */
  count = 0;

  constructor(
    private readonly dir: string,
    private readonly runBytes = DEFAULT_RUN_BYTES,
  ) {}

  add(key: string, value: string, record: number, owner: number): void {
    this.keys.push(key);
    this.values.push(value);
    this.records.push(record);
    this.owners.push(owner);
    this.count++;
    this.bytes += key.length + value.length + ENTRY_OVERHEAD;
    if (this.bytes > this.runBytes) this.spill();
  }

  private order(): Int32Array {
    const order = new Int32Array(this.keys.length);
    for (let i = 0; i < order.length; i++) order[i] = i;
    sortByKey(this.keys, order);
    return order;
  }

  private spill(): void {
    if (!this.dirMade) {
      mkdirSync(this.dir, { recursive: true });
      this.dirMade = true;
    }
    const path = join(this.dir, `run-${this.runs.length}`);
    const fd = openSync(path, "w");
    try {
      const out = new RunWriter(fd);
      const order = this.order();
      for (let j = 0; j < order.length; j++) {
        const i = int32At(order, j);
        out.entry(at(this.keys, i), at(this.values, i), at(this.records, i), at(this.owners, i));
      }
      out.flush();
    } finally {
      closeSync(fd);
    }
    this.runs.push(path);
    this.keys = [];
    this.values = [];
    this.records = [];
    this.owners = [];
    this.bytes = 0;
  }

  /** Every entry in key order (equal keys adjacent); the sorter is spent afterwards. */
  *sorted(): Generator<SortedEntry> {
    if (this.runs.length === 0) {
      const order = this.order();
      for (let j = 0; j < order.length; j++) {
        const i = int32At(order, j);
        yield { key: at(this.keys, i), value: at(this.values, i), record: at(this.records, i), owner: at(this.owners, i) };
      }
      return;
    }
    if (this.keys.length > 0) this.spill();
    const readers = this.runs.map((path) => new RunReader(path));
    try {
      // Min-heap of readers by their current key.
      const heap = readers.filter((r) => r.next());
      const less = (a: RunReader, b: RunReader) => a.key < b.key || (a.key === b.key && a.record < b.record);
      const down = (i: number) => {
        for (;;) {
          const l = 2 * i + 1;
          if (l >= heap.length) return;
          const r = l + 1;
          const m = r < heap.length && less(at(heap, r), at(heap, l)) ? r : l;
          if (!less(at(heap, m), at(heap, i))) return;
          [heap[i], heap[m]] = [at(heap, m), at(heap, i)];
          i = m;
        }
      };
      for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
      while (heap.length > 0) {
        const top = at(heap, 0);
        yield { key: top.key, value: top.value, record: top.record, owner: top.owner };
        if (!top.next()) {
          heap[0] = at(heap, heap.length - 1);
          heap.pop();
        }
        down(0);
      }
    } finally {
      for (const r of readers) r.close();
    }
  }

  /** Removes the scratch files. */
  dispose(): void {
    if (this.dirMade) rmSync(this.dir, { recursive: true, force: true });
    this.keys = [];
    this.values = [];
  }
}

/** Buffered writer of run records. */
class RunWriter {
  private buf = Buffer.allocUnsafe(READ_CHUNK);
  private at = 0;
  constructor(private readonly fd: number) {}

  entry(key: string, value: string, record: number, owner: number): void {
    const need = entryRecordSize(key, value);
    if (this.at + need > this.buf.length) {
      this.flush();
      if (need > this.buf.length) this.buf = Buffer.allocUnsafe(need);
    }
    this.at = writeEntryRecord(this.buf, this.at, key, value, record, owner);
  }

  flush(): void {
    let off = 0;
    while (off < this.at) off += writeSync(this.fd, this.buf, off, this.at - off);
    this.at = 0;
  }
}

/** Buffered reader of one run; `next()` loads the following record into its fields. */
class RunReader {
  key = "";
  value = "";
  record = 0;
  owner = 0;
  private readonly fd: number;
  private buf = Buffer.allocUnsafe(READ_CHUNK);
  private start = 0;
  private end = 0;
  private eof = false;

  constructor(path: string) {
    this.fd = openSync(path, "r");
  }

  /** Ensures `n` bytes are buffered from `start`; false at the end of the file. */
  private have(n: number): boolean {
    if (this.end - this.start >= n) return true;
    if (this.eof) return false;
    if (n > this.buf.length) {
      const grown = Buffer.allocUnsafe(n);
      this.buf.copy(grown, 0, this.start, this.end);
      this.buf = grown;
    } else {
      this.buf.copy(this.buf, 0, this.start, this.end);
    }
    this.end -= this.start;
    this.start = 0;
    while (this.end < n && !this.eof) {
      const read = readSync(this.fd, this.buf, this.end, this.buf.length - this.end, null);
      if (read === 0) this.eof = true;
      this.end += read;
    }
    return this.end >= n;
  }

  next(): boolean {
    if (!this.have(4)) return false;
    const keyLength = this.buf.readUInt32LE(this.start);
    if (!this.have(4 + keyLength + 4)) throw new Error("truncated genesis sort run");
    this.key = this.buf.toString("latin1", this.start + 4, this.start + 4 + keyLength);
    this.start += 4 + keyLength;
    const valueLength = this.buf.readUInt32LE(this.start);
    if (!this.have(4 + valueLength + 8)) throw new Error("truncated genesis sort run");
    this.value = this.buf.toString("latin1", this.start + 4, this.start + 4 + valueLength);
    this.start += 4 + valueLength;
    this.record = this.buf.readUInt32LE(this.start);
    this.owner = this.buf.readUInt32LE(this.start + 4);
    this.start += 8;
    return true;
  }

  close(): void {
    closeSync(this.fd);
  }
}
