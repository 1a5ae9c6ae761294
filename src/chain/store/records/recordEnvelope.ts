import { deserialize } from "node:v8";
import { BorshError, BorshReader } from "@shardkit/primitives/borshReader";
import { BorshWriter } from "@shardkit/primitives/borshWriter";
import { ChainStoreError } from "../ChainStore.js";
import { errorMessage } from "@shardkit/primitives/errorMessage";
import { byteAt } from "../../must.js";

/**
 * Every record of a data dir starts with this envelope: the magic byte 'S', the record kind and
 * the version of its layout, then the Borsh payload of that version. A reader names what it
 * expects; a record of another kind, of a version this shardkit does not know (a newer
 * shardkit wrote it) or with bytes left over is refused with a ChainStoreError, never
 * half-read. Records of format-3 data dirs (V8-serialised, first byte 0xFF) are still read.
 */
const MAGIC = 0x53;
/** The first byte of a V8-serialised value (its version tag). */
const V8_TAG = 0xff;

export const RecordKind = { FORMAT: 1, GENESIS: 2, BLOCK: 3, HEIGHT: 4 } as const;
export type RecordKind = (typeof RecordKind)[keyof typeof RecordKind];
const KIND_NAMES: Readonly<Record<number, string>> = { 1: "format header", 2: "genesis", 3: "block", 4: "height" };

/** How one record kind is written and read, per version (`write` writes the latest). */
export interface RecordCodec<T> {
  readonly kind: RecordKind;
  readonly version: number;
  write(w: BorshWriter, value: T): void;
  /** Reads a payload of `version` (<= the latest). */
  read(r: BorshReader, version: number): T;
  /** Whether a V8-serialised record of a format-3 data dir has the shape of `T`. */
  isFormat3(value: unknown): value is T;
}

export function encodeRecord<T>(codec: RecordCodec<T>, value: T): Buffer {
  const w = new BorshWriter().u8(MAGIC).u8(codec.kind).u8(codec.version);
  codec.write(w, value);
  const bytes = w.toBytes();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}

/** Decodes a record of `codec`'s kind; `what` names it in errors (e.g. "block 1234"). */
export function decodeRecord<T>(codec: RecordCodec<T>, bytes: Uint8Array, what: string): T {
  if (bytes[0] === V8_TAG) {
    let value: unknown;
    try {
      value = deserialize(bytes);
    } catch (e) {
      throw new ChainStoreError(`${what}: unreadable format-3 record (${errorMessage(e)})`, { cause: e });
    }
    if (!codec.isFormat3(value)) throw new ChainStoreError(`${what}: format-3 record is not a well-formed ${KIND_NAMES[codec.kind]}`);
    return value;
  }
  if (bytes[0] !== MAGIC || bytes.length < 3) throw new ChainStoreError(`${what}: not a shardkit record`);
  const kind = byteAt(bytes, 1);
  const version = byteAt(bytes, 2);
  if (kind !== codec.kind) {
    throw new ChainStoreError(`${what}: a ${KIND_NAMES[kind] ?? `kind-${kind}`} record where a ${KIND_NAMES[codec.kind]} belongs`);
  }
  if (version < 1 || version > codec.version) {
    throw new ChainStoreError(`${what}: ${KIND_NAMES[codec.kind]} record version ${version} is newer than this shardkit reads (${codec.version}); upgrade shardkit`);
  }
  try {
    // A plain Uint8Array view: the reader's slices are then copies of their own (a Buffer's
    // slice would be a view into the store's buffer) and of one type whatever the source.
    const r = new BorshReader(new Uint8Array(bytes.buffer, bytes.byteOffset + 3, bytes.length - 3));
    const value = codec.read(r, version);
    r.end();
    return value;
  } catch (e) {
    if (e instanceof BorshError || e instanceof RangeError || e instanceof TypeError) {
      throw new ChainStoreError(`${what}: corrupt ${KIND_NAMES[codec.kind]} record (${e.message})`, { cause: e });
    }
    throw e;
  }
}

/** A latin1 byte string (a trie key or value) as Vec<u8>. */
export function writeLatin1(w: BorshWriter, s: string): void {
  w.bytes(Buffer.from(s, "latin1"));
}

export function readLatin1(r: BorshReader): string {
  const bytes = r.bytesVec();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1");
}

export function writeVec<T>(w: BorshWriter, items: readonly T[], item: (w: BorshWriter, value: T) => void): void {
  w.u32(items.length);
  for (const value of items) item(w, value);
}

export function readVec<T>(r: BorshReader, item: (r: BorshReader) => T): T[] {
  const n = r.u32();
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(item(r));
  return out;
}

export function writeOption<T>(w: BorshWriter, value: T | null | undefined, item: (w: BorshWriter, value: T) => void): void {
  if (value === null || value === undefined) w.u8(0);
  else {
    w.u8(1);
    item(w, value);
  }
}

export function readOption<T>(r: BorshReader, item: (r: BorshReader) => T): T | undefined {
  const tag = r.u8();
  if (tag > 1) throw new BorshError(`invalid option tag ${tag}`);
  return tag === 1 ? item(r) : undefined;
}

/** A u64 that is a JS number (heights, counts): refused when over 2^53. */
export function readSafeU64(r: BorshReader): number {
  const v = r.u64();
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`u64 ${v} exceeds a safe integer`);
  return Number(v);
}

/** A JSON value (error views kept in nearcore's wire form) as a String. */
export function writeJson(w: BorshWriter, value: unknown): void {
  w.string(JSON.stringify(value));
}

export function readJson<T>(r: BorshReader): T {
  return JSON.parse(r.string()) as T;
}
