import type { ByteReader } from "./byteReader.js";
import type { ByteWriter } from "./byteWriter.js";

/**
 * Value types of the feature set nearcore enables (MVP, multi-value, reference types);
 * v128 is absent because SIMD is disabled for contracts.
 */
export const ValType = {
  i32: 0x7f,
  i64: 0x7e,
  f32: 0x7d,
  f64: 0x7c,
  funcref: 0x70,
  externref: 0x6f,
} as const;
export type ValType = (typeof ValType)[keyof typeof ValType];

const VAL_TYPES: ReadonlySet<number> = new Set(Object.values(ValType));
const isValType = (byte: number): byte is ValType => VAL_TYPES.has(byte);

export function isRefType(type: ValType): boolean {
  return type === ValType.funcref || type === ValType.externref;
}

export function readValType(reader: ByteReader): ValType {
  const byte = reader.u8();
  if (!isValType(byte)) reader.fail(`unsupported value type 0x${byte.toString(16)}`);
  return byte;
}

export function readRefType(reader: ByteReader): ValType {
  const type = readValType(reader);
  if (!isRefType(type)) reader.fail("expected a reference type");
  return type;
}

export interface FuncType {
  readonly params: readonly ValType[];
  readonly results: readonly ValType[];
}

export function readFuncType(reader: ByteReader): FuncType {
  if (reader.u8() !== 0x60) reader.fail("expected a function type (0x60)");
  const params = readValTypes(reader);
  const results = readValTypes(reader);
  return { params, results };
}

function readValTypes(reader: ByteReader): ValType[] {
  const count = reader.varU32();
  if (count > reader.remaining) reader.fail("value type count out of bounds");
  const out: ValType[] = [];
  for (let i = 0; i < count; i++) out.push(readValType(reader));
  return out;
}

export function writeFuncType(writer: ByteWriter, type: FuncType): void {
  writer.u8(0x60);
  writer.vec(type.params, (w, t) => w.u8(t));
  writer.vec(type.results, (w, t) => w.u8(t));
}

export function sameFuncType(a: FuncType, b: FuncType): boolean {
  return (
    a.params.length === b.params.length &&
    a.results.length === b.results.length &&
    a.params.every((t, i) => t === b.params[i]) &&
    a.results.every((t, i) => t === b.results[i])
  );
}

/** Table or memory limits; `shared`/64-bit flags are rejected (threads and memory64 are off). */
export interface Limits {
  readonly min: number;
  readonly max: number | undefined;
}

export function readLimits(reader: ByteReader): Limits {
  const flags = reader.u8();
  if (flags === 0x00) return { min: reader.varU32(), max: undefined };
  if (flags === 0x01) {
    const min = reader.varU32();
    return { min, max: reader.varU32() };
  }
  return reader.fail(`unsupported limits flags 0x${flags.toString(16)}`);
}

export function writeLimits(writer: ByteWriter, limits: Limits): void {
  if (limits.max === undefined) writer.u8(0x00).varU32(limits.min);
  else writer.u8(0x01).varU32(limits.min).varU32(limits.max);
}

export interface TableType {
  readonly elementType: ValType;
  readonly limits: Limits;
}

export function readTableType(reader: ByteReader): TableType {
  const elementType = readRefType(reader);
  return { elementType, limits: readLimits(reader) };
}

export interface GlobalType {
  readonly valType: ValType;
  readonly mutable: boolean;
}

export function readGlobalType(reader: ByteReader): GlobalType {
  const valType = readValType(reader);
  const mut = reader.u8();
  if (mut > 1) reader.fail("invalid global mutability");
  return { valType, mutable: mut === 1 };
}

export function writeGlobalType(writer: ByteWriter, type: GlobalType): void {
  writer.u8(type.valType).u8(type.mutable ? 1 : 0);
}

/** External kinds of imports and exports. */
export const ExternalKind = { func: 0, table: 1, memory: 2, global: 3 } as const;
export type ExternalKind = (typeof ExternalKind)[keyof typeof ExternalKind];

export function isExternalKind(kind: number): kind is ExternalKind {
  return kind === ExternalKind.func || kind === ExternalKind.table || kind === ExternalKind.memory || kind === ExternalKind.global;
}
