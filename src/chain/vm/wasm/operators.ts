import type { ByteReader } from "./byteReader.js";
import { type ValType, readRefType, readValType } from "./wasmTypes.js";

/**
 * Operator decoding for the features nearcore enables for contracts: MVP, sign-extension,
 * saturating float-to-int, bulk memory, reference types, multi-value and mutable globals.
 * SIMD (0xFD), threads (0xFE), exceptions, tail calls and GC opcodes are rejected, as
 * nearcore's validator rejects them.
 */

/** Block types: no value, one result value, or a type index (multi-value). */
export type BlockType =
  | { readonly kind: "empty" }
  | { readonly kind: "value"; readonly type: ValType }
  | { readonly kind: "func"; readonly typeIndex: number };

/** A decoded operator. `code` is the opcode byte, or 0xFC00 | sub-opcode for the 0xFC prefix. */
export interface Operator {
  readonly code: number;
  /** Offset of the first byte of the operator, relative to the start of the code bytes. */
  readonly start: number;
  /** Offset just past the operator. */
  readonly end: number;
  readonly blockType?: BlockType;
  /** br, br_if: the label; br_table: the default label. */
  readonly depth?: number;
  readonly targets?: readonly number[];
  /** call, ref.func: function; local.*: local; global.*: global; call_indirect: type. */
  readonly index?: number;
  /** call_indirect, table.*: the table; table.copy: the destination table. */
  readonly table?: number;
  /** table.copy: the source table; table.init/elem.drop: element segment; memory.init/data.drop: data segment. */
  readonly index2?: number;
  /** typed select: its result types; ref.null: the reference type. */
  readonly types?: readonly ValType[];
  /** Memory access alignment exponent and offset. */
  readonly align?: number;
  readonly offset?: number;
  /** i32.const: its value. */
  readonly value?: number;
}

export const Op = {
  unreachable: 0x00,
  nop: 0x01,
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  brTable: 0x0e,
  return: 0x0f,
  call: 0x10,
  callIndirect: 0x11,
  drop: 0x1a,
  select: 0x1b,
  selectTyped: 0x1c,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  globalGet: 0x23,
  globalSet: 0x24,
  tableGet: 0x25,
  tableSet: 0x26,
  memorySize: 0x3f,
  memoryGrow: 0x40,
  i32Const: 0x41,
  i64Const: 0x42,
  f32Const: 0x43,
  f64Const: 0x44,
  refNull: 0xd0,
  refIsNull: 0xd1,
  refFunc: 0xd2,
  memoryInit: 0xfc08,
  dataDrop: 0xfc09,
  memoryCopy: 0xfc0a,
  memoryFill: 0xfc0b,
  tableInit: 0xfc0c,
  elemDrop: 0xfc0d,
  tableCopy: 0xfc0e,
  tableGrow: 0xfc0f,
  tableSize: 0xfc10,
  tableFill: 0xfc11,
} as const;

/** Natural alignment exponent (log2 of the access width) of each load/store, 0x28-0x3E. */
const MEMORY_ACCESS_MAX_ALIGN: Readonly<Record<number, number>> = {
  0x28: 2,
  0x29: 3,
  0x2a: 2,
  0x2b: 3,
  0x2c: 0,
  0x2d: 0,
  0x2e: 1,
  0x2f: 1,
  0x30: 0,
  0x31: 0,
  0x32: 1,
  0x33: 1,
  0x34: 2,
  0x35: 2,
  0x36: 2,
  0x37: 3,
  0x38: 2,
  0x39: 3,
  0x3a: 0,
  0x3b: 1,
  0x3c: 0,
  0x3d: 1,
  0x3e: 2,
};

export function isMemoryAccess(code: number): boolean {
  return code >= 0x28 && code <= 0x3e;
}

export function memoryAccessMaxAlign(code: number): number {
  return MEMORY_ACCESS_MAX_ALIGN[code] ?? 0;
}

function readBlockType(r: ByteReader): BlockType {
  const byte = r.peekU8();
  if (byte === 0x40) {
    r.u8();
    return { kind: "empty" };
  }
  if ((byte & 0xc0) === 0x40) {
    // A negative single-byte s33 is a value type.
    return { kind: "value", type: readValType(r) };
  }
  const typeIndex = r.varS33();
  if (typeIndex < 0) r.fail("invalid block type");
  return { kind: "func", typeIndex };
}

function zeroByte(r: ByteReader): void {
  if (r.u8() !== 0x00) r.fail("expected a zero byte (multi-memory is disabled)");
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Reads one operator at the reader's position. `base` is subtracted from positions so that
 * offsets are relative to the function's code bytes. Allocates only the operator itself: this
 * runs once per instruction of every contract prepared.
 */
export function readOperator(r: ByteReader, base: number): Operator {
  const start = r.position - base;
  const byte = r.u8();
  const op: Mutable<Operator> = { code: byte, start, end: start };
  if (byte <= 0x01 || byte === 0x05 || byte === 0x0b || byte === 0x0f || byte === 0x1a || byte === 0x1b) {
    // no immediates
  } else if (byte >= 0x02 && byte <= 0x04) {
    op.blockType = readBlockType(r);
  } else if (byte === 0x0c || byte === 0x0d) {
    op.depth = r.varU32();
  } else if (byte === 0x0e) {
    const count = r.varU32();
    if (count > r.remaining) r.fail("br_table length out of bounds");
    const targets: number[] = [];
    for (let i = 0; i < count; i++) targets.push(r.varU32());
    op.targets = targets;
    op.depth = r.varU32();
  } else if (byte === 0x10 || byte === 0xd2) {
    op.index = r.varU32();
  } else if (byte === 0x11) {
    op.index = r.varU32();
    op.table = r.varU32();
  } else if (byte === 0x1c) {
    if (r.varU32() !== 1) r.fail("typed select must have exactly one type");
    op.types = [readValType(r)];
  } else if (byte >= 0x20 && byte <= 0x24) {
    op.index = r.varU32();
  } else if (byte === 0x25 || byte === 0x26) {
    op.table = r.varU32();
  } else if (isMemoryAccess(byte)) {
    const align = r.varU32();
    if (align >= 0x40) r.fail("memory index in memarg (multi-memory is disabled)");
    op.align = align;
    op.offset = r.varU32();
  } else if (byte === 0x3f || byte === 0x40) {
    zeroByte(r);
  } else if (byte === 0x41) {
    op.value = r.varS32();
  } else if (byte === 0x42) {
    r.varS64();
  } else if (byte === 0x43) {
    r.skip(4);
  } else if (byte === 0x44) {
    r.skip(8);
  } else if (byte >= 0x45 && byte <= 0xc4) {
    // Numeric operators without immediates: MVP 0x45-0xBF, sign-extension 0xC0-0xC4.
  } else if (byte === 0xd0) {
    op.types = [readRefType(r)];
  } else if (byte === 0xd1) {
    // ref.is_null
  } else if (byte === 0xfc) {
    readPrefixed(r, op);
  } else {
    r.fail(`unsupported opcode 0x${byte.toString(16)}`);
  }
  op.end = r.position - base;
  return op;
}

function readPrefixed(r: ByteReader, op: Mutable<Operator>): void {
  const sub = r.varU32();
  if (sub > 17) r.fail(`unsupported opcode 0xfc ${sub}`);
  const code = 0xfc00 | sub;
  op.code = code;
  if (sub <= 7) return; // saturating float-to-int
  switch (code) {
    case Op.memoryInit:
      op.index2 = r.varU32();
      zeroByte(r);
      return;
    case Op.dataDrop:
    case Op.elemDrop:
      op.index2 = r.varU32();
      return;
    case Op.memoryCopy:
      zeroByte(r);
      zeroByte(r);
      return;
    case Op.memoryFill:
      zeroByte(r);
      return;
    case Op.tableInit:
      op.index2 = r.varU32();
      op.table = r.varU32();
      return;
    case Op.tableCopy:
      op.table = r.varU32();
      op.index2 = r.varU32();
      return;
    default:
      // table.grow, table.size, table.fill
      op.table = r.varU32();
  }
}
