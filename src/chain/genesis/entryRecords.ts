/**
 * The record of one genesis trie entry in sort runs and in the batches between the loader and
 * its sort worker: u32le key length ‖ key ‖ u32le value length ‖ value ‖ u32le record ‖ u32le
 * owner. Keys and values are latin1 strings (one char per byte).
 */

/** Bytes `writeEntryRecord` needs for this key and value. */
export function entryRecordSize(key: string, value: string): number {
  return 16 + key.length + value.length;
}

/** Writes one record at `at` (room checked by the caller); returns the offset after it. */
export function writeEntryRecord(buf: Buffer, at: number, key: string, value: string, record: number, owner: number): number {
  buf.writeUInt32LE(key.length, at);
  at += 4 + buf.write(key, at + 4, "latin1");
  buf.writeUInt32LE(value.length, at);
  at += 4 + buf.write(value, at + 4, "latin1");
  buf.writeUInt32LE(record, at);
  buf.writeUInt32LE(owner, at + 4);
  return at + 8;
}

/** Visits every record of `buf` (whole records only, as `writeEntryRecord` made them). */
export function readEntryRecords(buf: Buffer, visit: (key: string, value: string, record: number, owner: number) => void): void {
  let at = 0;
  while (at < buf.length) {
    const keyEnd = at + 4 + buf.readUInt32LE(at);
    const key = buf.toString("latin1", at + 4, keyEnd);
    const valueEnd = keyEnd + 4 + buf.readUInt32LE(keyEnd);
    const value = buf.toString("latin1", keyEnd + 4, valueEnd);
    visit(key, value, buf.readUInt32LE(valueEnd), buf.readUInt32LE(valueEnd + 4));
    at = valueEnd + 8;
  }
}
