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
  0x28: 2, 0x29: 3, 0x2a: 2, 0x2b: 3, 0x2c: 0, 0x2d: 0, 0x2e: 1, 0x2f: 1,
  0x30: 0, 0x31: 0, 0x32: 1, 0x33: 1, 0x34: 2, 0x35: 2,
  0x36: 2, 0x37: 3, 0x38: 2, 0x39: 3, 0x3a: 0, 0x3b: 1, 0x3c: 0, 0x3d: 1, 0x3e: 2,
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

/**
 * Reads one operator at the reader's position. `base` is subtracted from positions so that
 * offsets are relative to the function's code bytes.
 */
export function readOperator(r: ByteReader, base: number): Operator {
  const start = r.position - base;
  const code = r.u8();
  const done = (fields: Omit<Operator, "code" | "start" | "end"> = {}, opcode = code): Operator => ({
    code: opcode,
    start,
    end: r.position - base,
    ...fields,
  });
  if (code <= 0x01 || code === 0x05 || code === 0x0b || code === 0x0f || code === 0x1a || code === 0x1b) return done();
  if (code >= 0x02 && code <= 0x04) return done({ blockType: readBlockType(r) });
  if (code === 0x0c || code === 0x0d) return done({ depth: r.varU32() });
  if (code === 0x0e) {
    const count = r.varU32();
    if (count > r.remaining) r.fail("br_table length out of bounds");
    const targets: number[] = [];
    for (let i = 0; i < count; i++) targets.push(r.varU32());
    return done({ targets, depth: r.varU32() });
  }
  if (code === 0x10 || code === 0xd2) return done({ index: r.varU32() });
  if (code === 0x11) {
    const index = r.varU32();
    return done({ index, table: r.varU32() });
  }
  if (code === 0x1c) {
    const count = r.varU32();
    if (count !== 1) r.fail("typed select must have exactly one type");
    return done({ types: [readValType(r)] });
  }
  if (code >= 0x20 && code <= 0x24) return done({ index: r.varU32() });
  if (code === 0x25 || code === 0x26) return done({ table: r.varU32() });
  if (isMemoryAccess(code)) {
    const align = r.varU32();
    if (align >= 0x40) r.fail("memory index in memarg (multi-memory is disabled)");
    return done({ align, offset: r.varU32() });
  }
  if (code === 0x3f || code === 0x40) {
    zeroByte(r);
    return done();
  }
  if (code === 0x41) {
    r.varS32();
    return done();
  }
  if (code === 0x42) {
    r.varS64();
    return done();
  }
  if (code === 0x43) {
    r.skip(4);
    return done();
  }
  if (code === 0x44) {
    r.skip(8);
    return done();
  }
  // Numeric operators without immediates: MVP 0x45-0xBF, sign-extension 0xC0-0xC4.
  if (code >= 0x45 && code <= 0xc4) return done();
  if (code === 0xd0) return done({ types: [readRefType(r)] });
  if (code === 0xd1) return done();
  if (code === 0xfc) return readPrefixed(r, done);
  return r.fail(`unsupported opcode 0x${code.toString(16)}`);
}

function readPrefixed(
  r: ByteReader,
  done: (fields: Omit<Operator, "code" | "start" | "end">, opcode: number) => Operator,
): Operator {
  const sub = r.varU32();
  const code = 0xfc00 | sub;
  if (sub <= 7) return done({}, code); // saturating float-to-int
  switch (code) {
    case Op.memoryInit: {
      const index2 = r.varU32();
      zeroByte(r);
      return done({ index2 }, code);
    }
    case Op.dataDrop:
      return done({ index2: r.varU32() }, code);
    case Op.memoryCopy:
      zeroByte(r);
      zeroByte(r);
      return done({}, code);
    case Op.memoryFill:
      zeroByte(r);
      return done({}, code);
    case Op.tableInit: {
      const index2 = r.varU32();
      return done({ index2, table: r.varU32() }, code);
    }
    case Op.elemDrop:
      return done({ index2: r.varU32() }, code);
    case Op.tableCopy: {
      const table = r.varU32();
      return done({ table, index2: r.varU32() }, code);
    }
    case Op.tableGrow:
    case Op.tableSize:
    case Op.tableFill:
      return done({ table: r.varU32() }, code);
    default:
      return r.fail(`unsupported opcode 0xfc ${sub}`);
  }
}
