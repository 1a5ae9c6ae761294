import { open } from "node:fs/promises";
import { GenesisError } from "./GenesisError.js";
import { byteAt, InvariantError } from "../must.js";
import { errorMessage } from "@shardkit/primitives/errorMessage";

export interface GenesisScanHandlers {
  /** A top-level field other than `records`, already parsed. */
  field(name: string, value: unknown): void;
  /** One element of `records`, parsed on its own (the file is never parsed whole). */
  record(index: number, value: unknown): void;
  /** Sees each record's raw bytes first (a view, valid during the call): true if it took the record, which `record` then never sees. */
  recordBytes?(index: number, bytes: Buffer): boolean;
  /** After each chunk of the file, with the bytes read so far: a returned promise holds the next read back (back-pressure). */
  chunkDone?(bytesRead: number): Promise<void> | undefined;
}

const enum S {
  BeforeObject,
  KeyOrEnd,
  Key,
  Colon,
  Value,
  InValue,
  AfterValue,
  KeyAfterComma,
  RecordOrEnd,
  Record,
  AfterRecord,
  RecordAfterComma,
  Done,
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * Streams a nearcore genesis JSON file in fixed-size chunks. It tracks only strings,
 * escapes and bracket depth: each element of `records` is cut out as raw bytes and
 * JSON.parse'd alone, so memory stays bounded by the largest record, not the file.
 * Other top-level fields are cut out and parsed the same way. Syntax problems outside a
 * record are reported with their byte offset; a record that is not valid JSON with its index.
 */
export async function scanGenesisFile(path: string, handlers: GenesisScanHandlers, chunkSize = 1 << 20): Promise<number> {
  const file = await open(path, "r");
  try {
    const scanner = new GenesisScanner(handlers);
    const buf = Buffer.allocUnsafe(chunkSize);
    let total = 0;
    for (;;) {
      const { bytesRead } = await file.read(buf, 0, chunkSize, null);
      if (bytesRead === 0) break;
      scanner.feed(buf.subarray(0, bytesRead));
      total += bytesRead;
      await handlers.chunkDone?.(total);
    }
    return scanner.end();
  } finally {
    await file.close();
  }
}

/** The byte-level state machine behind {@link scanGenesisFile} (exported for tests). */
export class GenesisScanner {
  private state = S.BeforeObject;
  private offset = 0; // bytes consumed before the current chunk
  private pieces: Buffer[] = []; // captured bytes from earlier chunks
  private captureStart = -1; // start of the capture in the current chunk, -1 = none
  private inString = false;
  private escaped = false;
  private depth = 0;
  private key = "";
  private records = 0;
  private nextBackslash = -1; // per chunk, see feed()

  constructor(private readonly handlers: GenesisScanHandlers) {}

  private error(at: number, what: string): never {
    throw new GenesisError(`malformed genesis JSON at byte ${this.offset + at}: ${what}`);
  }

  private takeCapture(chunk: Buffer, endExclusive: number): string {
    return this.takeCaptureBytes(chunk, endExclusive).toString("utf8");
  }

  private takeCaptureBytes(chunk: Buffer, endExclusive: number): Buffer {
    const start = this.captureStart;
    this.captureStart = -1;
    if (this.pieces.length === 0) return chunk.subarray(start, endExclusive);
    const bytes = Buffer.concat([...this.pieces, chunk.subarray(start, endExclusive)]);
    this.pieces = [];
    return bytes;
  }

  feed(chunk: Buffer): void {
    const n = chunk.length;
    // Next backslash at or after the scan position (n = none), found once per stretch of
    // the chunk: lets string bodies be skipped with native indexOf, not byte by byte.
    let nextBackslash = -1;
    this.nextBackslash = -1;
    for (let i = 0; i < n; i++) {
      if (this.state === S.Record) {
        i = this.scanRecord(chunk, i);
        continue;
      }
      let c = byteAt(chunk, i);
      switch (this.state) {
        case S.InValue:
        case S.Key: {
          if (this.inString) {
            if (!this.escaped && c !== QUOTE && c !== BACKSLASH) {
              if (nextBackslash < i) {
                nextBackslash = chunk.indexOf(BACKSLASH, i);
                if (nextBackslash < 0) nextBackslash = n;
              }
              let q = chunk.indexOf(QUOTE, i);
              if (q < 0) q = n;
              i = Math.min(q, nextBackslash);
              if (i >= n) continue; // the string goes on in the next chunk (loop ends)
              c = byteAt(chunk, i);
            }
            if (this.escaped) this.escaped = false;
            else if (c === BACKSLASH) this.escaped = true;
            else if (c === QUOTE) {
              this.inString = false;
              if (this.state === S.Key) {
                this.key = parseKey(this.takeCapture(chunk, i + 1));
                this.state = S.Colon;
              } else if (this.depth === 0) {
                this.finishValue(chunk, i + 1); // a top-level string value
              }
            }
            continue;
          }
          if (c === QUOTE) {
            this.inString = true;
          } else if (c === 0x7b || c === 0x5b) {
            this.depth++;
          } else if (c === 0x7d || c === 0x5d) {
            if (this.depth === 0) {
              // End of the enclosing object: a scalar value ends just before it.
              this.finishValue(chunk, i);
              i--;
              continue;
            }
            this.depth--;
            if (this.depth === 0) {
              this.finishValue(chunk, i + 1);
            }
          } else if (c === 0x2c && this.depth === 0) {
            this.finishValue(chunk, i); // a scalar value ends at the comma
            i--;
          }
          continue;
        }
        default:
          break;
      }
      if (isSpace(c)) continue;
      switch (this.state) {
        case S.BeforeObject:
          if (c !== 0x7b) this.error(i, "expected '{' at the start of the file");
          this.state = S.KeyOrEnd;
          break;
        case S.KeyOrEnd:
        case S.KeyAfterComma:
          if (c === 0x7d && this.state === S.KeyOrEnd) {
            this.state = S.Done;
          } else if (c === QUOTE) {
            this.state = S.Key;
            this.inString = true;
            this.captureStart = i;
          } else {
            this.error(i, "expected a field name");
          }
          break;
        case S.Colon:
          if (c !== 0x3a) this.error(i, "expected ':'");
          this.state = S.Value;
          break;
        case S.Value:
          if (this.key === "records") {
            if (c !== 0x5b) this.error(i, "`records` must be an array");
            this.state = S.RecordOrEnd;
          } else {
            this.state = S.InValue;
            this.captureStart = i;
            this.depth = 0;
            i--; // re-read the first value byte in capture mode
          }
          break;
        case S.AfterValue:
          if (c === 0x2c) this.state = S.KeyAfterComma;
          else if (c === 0x7d) this.state = S.Done;
          else this.error(i, "expected ',' or '}' after a field");
          break;
        case S.RecordOrEnd:
        case S.RecordAfterComma:
          if (c === 0x5d && this.state === S.RecordOrEnd) {
            this.state = S.AfterValue;
          } else if (c === 0x7b) {
            this.state = S.Record;
            this.depth = 1;
            this.captureStart = i;
          } else {
            throw new GenesisError("a record must be a JSON object", this.records);
          }
          break;
        case S.AfterRecord:
          if (c === 0x2c) this.state = S.RecordAfterComma;
          else if (c === 0x5d) this.state = S.AfterValue;
          else this.error(i, "expected ',' or ']' after a record");
          break;
        case S.Done:
          this.error(i, "unexpected data after the top-level object");
      }
    }
    if (this.captureStart >= 0) {
      this.pieces.push(Buffer.from(chunk.subarray(this.captureStart))); // copy: the chunk buffer is reused
      this.captureStart = 0;
    }
    this.offset += n;
  }

  /**
   * The hot loop: scans record bytes from `i` with state in locals. Returns the index of
   * the record's closing brace (after finishing it) or the last index of the chunk.
   */
  private scanRecord(chunk: Buffer, i: number): number {
    const n = chunk.length;
    let inString = this.inString;
    let escaped = this.escaped;
    let depth = this.depth;
    let nextBackslash = this.nextBackslash;
    for (; i < n; i++) {
      let c = byteAt(chunk, i);
      if (inString) {
        if (escaped) {
          escaped = false;
          continue;
        }
        if (c !== QUOTE && c !== BACKSLASH) {
          // Jump to the next quote or backslash with native searches.
          if (nextBackslash < i) {
            nextBackslash = chunk.indexOf(BACKSLASH, i);
            if (nextBackslash < 0) nextBackslash = n;
          }
          let q = chunk.indexOf(QUOTE, i);
          if (q < 0) q = n;
          i = q < nextBackslash ? q : nextBackslash;
          if (i >= n) break;
          c = byteAt(chunk, i);
        }
        if (c === BACKSLASH) escaped = true;
        else inString = false;
        continue;
      }
      if (c === QUOTE) inString = true;
      else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth === 0) {
          this.inString = false;
          this.escaped = false;
          this.depth = 0;
          this.nextBackslash = nextBackslash;
          this.finishRecord(chunk, i + 1);
          return i;
        }
      }
    }
    this.inString = inString;
    this.escaped = escaped;
    this.depth = depth;
    this.nextBackslash = nextBackslash;
    return n - 1;
  }

  private finishRecord(chunk: Buffer, end: number): void {
    const bytes = this.takeCaptureBytes(chunk, end);
    this.state = S.AfterRecord;
    if (this.handlers.recordBytes?.(this.records, bytes) === true) {
      this.records++;
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(bytes.toString("utf8"));
    } catch (e) {
      throw new GenesisError(`not valid JSON (${errorMessage(e)})`, this.records, { cause: e });
    }
    this.handlers.record(this.records++, value);
  }

  private finishValue(chunk: Buffer, end: number): void {
    const text = this.takeCapture(chunk, end);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new GenesisError(`genesis field ${JSON.stringify(this.key)} is not valid JSON (${errorMessage(e)})`, undefined, { cause: e });
    }
    this.handlers.field(this.key, value);
    this.state = S.AfterValue;
  }

  /** Checks the file ended after a complete object; returns the number of records. */
  end(): number {
    if (this.state !== S.Done) throw new GenesisError("genesis JSON ends early (incomplete top-level object)");
    return this.records;
  }
}

/** A field name: the captured text is one whole JSON string literal, quotes included. */
function parseKey(literal: string): string {
  const key: unknown = JSON.parse(literal);
  if (typeof key !== "string") throw new InvariantError(`genesis scanner captured ${literal.slice(0, 40)} as a field name`);
  return key;
}
