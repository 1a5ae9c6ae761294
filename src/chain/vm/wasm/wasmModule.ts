import { ByteReader } from "./byteReader.js";
import { ByteWriter } from "./byteWriter.js";
import { type ConstExpr, readConstExpr, writeConstExpr } from "./constExpr.js";
import {
  ExternalKind,
  isExternalKind,
  type FuncType,
  type GlobalType,
  type Limits,
  type TableType,
  type ValType,
  readFuncType,
  readGlobalType,
  readLimits,
  readRefType,
  readTableType,
  readValType,
  writeFuncType,
  writeGlobalType,
  writeLimits,
} from "./wasmTypes.js";

/**
 * A decoded wasm module: every section the contract preparation rewrites is decoded into
 * values; the data section is kept as its raw payload (nothing in it names a function).
 */
export interface WasmModule {
  types: FuncType[];
  imports: Import[];
  /** Type index of each defined (non-imported) function. */
  functions: number[];
  tables: TableType[];
  memories: Limits[];
  globals: Global[];
  exports: Export[];
  start: number | undefined;
  elements: ElementSegment[];
  dataCount: number | undefined;
  code: FunctionBody[];
  /** Raw payload of the data section, if present. */
  data: Uint8Array | undefined;
  customSections: CustomSection[];
}

export type ImportDesc =
  | { readonly kind: typeof ExternalKind.func; readonly typeIndex: number }
  | { readonly kind: typeof ExternalKind.table; readonly type: TableType }
  | { readonly kind: typeof ExternalKind.memory; readonly limits: Limits }
  | { readonly kind: typeof ExternalKind.global; readonly type: GlobalType };

export interface Import {
  readonly module: string;
  readonly name: string;
  readonly desc: ImportDesc;
}

export interface Global {
  readonly type: GlobalType;
  readonly init: ConstExpr;
}

export interface Export {
  readonly name: string;
  readonly kind: ExternalKind;
  readonly index: number;
}

/** One element segment; `flags` is the binary format variant (0-7), kept to re-encode it the same way. */
export interface ElementSegment {
  readonly flags: number;
  readonly tableIndex: number;
  readonly offset: ConstExpr | undefined;
  readonly elementType: ValType;
  readonly functionIndices: readonly number[] | undefined;
  readonly exprs: readonly ConstExpr[] | undefined;
}

export interface LocalGroup {
  readonly count: number;
  readonly type: ValType;
}

export interface FunctionBody {
  readonly locals: readonly LocalGroup[];
  /** Operator bytes, ending with the function's final `end`. */
  readonly code: Uint8Array;
  /** Size of the whole entry (locals and code), the figure nearcore limits. */
  readonly size: number;
}

export interface CustomSection {
  readonly name: string;
  readonly payload: Uint8Array;
  /** Id of the last non-custom section before it (0 if none), to re-emit it in place. */
  readonly after: number;
}

export const SectionId = {
  custom: 0,
  type: 1,
  import: 2,
  function: 3,
  table: 4,
  memory: 5,
  global: 6,
  export: 7,
  start: 8,
  element: 9,
  code: 10,
  data: 11,
  dataCount: 12,
} as const;

/** Position of each known section in the mandatory order (data count sits between element and code). */
const SECTION_ORDER: Readonly<Record<number, number>> = {
  1: 1,
  2: 2,
  3: 3,
  4: 4,
  5: 5,
  6: 6,
  7: 7,
  8: 8,
  9: 9,
  12: 10,
  10: 11,
  11: 12,
};

/**
 * Observes decoding section by section, so limit checks happen in the same order as nearcore's
 * streaming preparation (a limit error wins over a malformed later section). Throw to stop.
 */
export interface DecodeObserver {
  /** Called with the type section's entry count before its entries are read. */
  beforeTypes?(count: number): void;
  afterSection?(id: number, module: WasmModule): void;
  beforeCodeEntries?(count: number, module: WasmModule): void;
  afterCodeEntry?(index: number, body: FunctionBody, module: WasmModule): void;
}

export function emptyModule(): WasmModule {
  return {
    types: [],
    imports: [],
    functions: [],
    tables: [],
    memories: [],
    globals: [],
    exports: [],
    start: undefined,
    elements: [],
    dataCount: undefined,
    code: [],
    data: undefined,
    customSections: [],
  };
}

const MAGIC_AND_VERSION = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

/** Decodes a module; throws WasmDecodeError on malformed input (or what the observer throws). */
export function decodeModule(bytes: Uint8Array, observer: DecodeObserver = {}): WasmModule {
  const reader = new ByteReader(bytes);
  for (const expected of MAGIC_AND_VERSION) {
    if (reader.u8() !== expected) reader.fail("bad magic number or version");
  }
  const module = emptyModule();
  let lastOrder = 0;
  let lastId = 0;
  while (!reader.eof) {
    const id = reader.u8();
    const size = reader.varU32();
    const start = reader.position;
    if (size > reader.remaining) reader.fail("section size out of bounds");
    const section = new ByteReader(bytes, start, start + size);
    if (id === SectionId.custom) {
      const name = section.name();
      module.customSections.push({ name, payload: section.take(section.remaining), after: lastId });
    } else {
      const order = SECTION_ORDER[id];
      if (order === undefined) return reader.fail(`unknown section id ${id}`);
      if (order <= lastOrder) reader.fail(`section ${id} out of order or duplicated`);
      lastOrder = order;
      lastId = id;
      decodeSection(id, section, module, observer);
      if (!section.eof) section.fail(`section ${id} has trailing bytes`);
    }
    reader.skip(size);
    observer.afterSection?.(id, module);
  }
  if (module.functions.length !== module.code.length) reader.fail("function and code section counts differ");
  return module;
}

function readVec<T>(reader: ByteReader, item: () => T): T[] {
  return readItems(reader, reader.varU32(), item);
}

function readItems<T>(reader: ByteReader, count: number, item: () => T): T[] {
  // Every item takes at least one byte: a count beyond the payload is malformed (and must not allocate).
  if (count > reader.remaining) reader.fail("vector length out of bounds");
  const out: T[] = [];
  for (let i = 0; i < count; i++) out.push(item());
  return out;
}

function decodeSection(id: number, r: ByteReader, m: WasmModule, observer: DecodeObserver): void {
  switch (id) {
    case SectionId.type: {
      const count = r.varU32();
      observer.beforeTypes?.(count);
      m.types = readItems(r, count, () => readFuncType(r));
      return;
    }
    case SectionId.import:
      m.imports = readVec(r, () => readImport(r));
      return;
    case SectionId.function:
      m.functions = readVec(r, () => r.varU32());
      return;
    case SectionId.table:
      m.tables = readVec(r, () => readTableType(r));
      return;
    case SectionId.memory:
      m.memories = readVec(r, () => readLimits(r));
      return;
    case SectionId.global:
      m.globals = readVec(r, () => ({ type: readGlobalType(r), init: readConstExpr(r) }));
      return;
    case SectionId.export:
      m.exports = readVec(r, () => {
        const name = r.name();
        const kind = r.u8();
        if (!isExternalKind(kind)) r.fail(`unsupported export kind ${kind}`);
        return { name, kind, index: r.varU32() };
      });
      return;
    case SectionId.start:
      m.start = r.varU32();
      return;
    case SectionId.element:
      m.elements = readVec(r, () => readElementSegment(r));
      return;
    case SectionId.dataCount:
      m.dataCount = r.varU32();
      return;
    case SectionId.code: {
      const count = r.varU32();
      if (count > r.remaining) r.fail("vector length out of bounds");
      observer.beforeCodeEntries?.(count, m);
      for (let i = 0; i < count; i++) {
        const body = readFunctionBody(r);
        m.code.push(body);
        observer.afterCodeEntry?.(i, body, m);
      }
      return;
    }
    case SectionId.data:
      m.data = r.take(r.remaining);
      return;
  }
}

function readImport(r: ByteReader): Import {
  const module = r.name();
  const name = r.name();
  const kind = r.u8();
  switch (kind) {
    case ExternalKind.func:
      return { module, name, desc: { kind, typeIndex: r.varU32() } };
    case ExternalKind.table:
      return { module, name, desc: { kind, type: readTableType(r) } };
    case ExternalKind.memory:
      return { module, name, desc: { kind, limits: readLimits(r) } };
    case ExternalKind.global:
      return { module, name, desc: { kind, type: readGlobalType(r) } };
    default:
      return r.fail(`unsupported import kind ${kind}`);
  }
}

function readElementSegment(r: ByteReader): ElementSegment {
  const flags = r.varU32();
  if (flags > 7) r.fail(`invalid element segment flags ${flags}`);
  const passiveOrDeclarative = (flags & 1) !== 0;
  const explicitTable = !passiveOrDeclarative && (flags & 2) !== 0;
  const usesExprs = (flags & 4) !== 0;
  const tableIndex = explicitTable ? r.varU32() : 0;
  const offset = passiveOrDeclarative ? undefined : readConstExpr(r);
  let elementType: ValType = 0x70;
  if ((flags & 3) !== 0) {
    if (usesExprs) elementType = readRefType(r);
    else if (r.u8() !== 0x00) r.fail("unsupported element kind");
  }
  if (usesExprs) {
    return {
      flags,
      tableIndex,
      offset,
      elementType,
      functionIndices: undefined,
      exprs: readVec(r, () => readConstExpr(r)),
    };
  }
  return { flags, tableIndex, offset, elementType, functionIndices: readVec(r, () => r.varU32()), exprs: undefined };
}

function readFunctionBody(r: ByteReader): FunctionBody {
  const size = r.varU32();
  if (size > r.remaining) r.fail("function body size out of bounds");
  const start = r.position;
  const body = new ByteReader(r.bytes, start, start + size);
  const locals = readVec(body, () => {
    const count = body.varU32();
    return { count, type: readValType(body) };
  });
  const code = body.take(body.remaining);
  if (code.length === 0 || code[code.length - 1] !== 0x0b) body.fail("function body must end with `end`");
  r.skip(size);
  return { locals, code, size };
}

/** Encodes a module in the standard section order; custom sections go back where they were. */
export function encodeModule(m: WasmModule): Uint8Array {
  const out = new ByteWriter(1024);
  for (const byte of MAGIC_AND_VERSION) out.u8(byte);
  const emitCustomAfter = (id: number): void => {
    for (const custom of m.customSections) {
      if (custom.after !== id) continue;
      const payload = new ByteWriter(custom.payload.length + 16).name(custom.name).bytes(custom.payload);
      out.section(SectionId.custom, payload.finish());
    }
  };
  const section = (id: number, present: boolean, write: (w: ByteWriter) => void): void => {
    if (present) {
      const w = new ByteWriter();
      write(w);
      out.section(id, w.finish());
    }
    emitCustomAfter(id);
  };
  emitCustomAfter(0);
  section(SectionId.type, m.types.length > 0, (w) => w.vec(m.types, writeFuncType));
  section(SectionId.import, m.imports.length > 0, (w) => w.vec(m.imports, writeImport));
  section(SectionId.function, m.functions.length > 0, (w) => w.vec(m.functions, (ww, t) => ww.varU32(t)));
  section(SectionId.table, m.tables.length > 0, (w) =>
    w.vec(m.tables, (ww, t) => {
      ww.u8(t.elementType);
      writeLimits(ww, t.limits);
    }),
  );
  section(SectionId.memory, m.memories.length > 0, (w) => w.vec(m.memories, writeLimits));
  section(SectionId.global, m.globals.length > 0, (w) =>
    w.vec(m.globals, (ww, g) => {
      writeGlobalType(ww, g.type);
      writeConstExpr(ww, g.init);
    }),
  );
  section(SectionId.export, m.exports.length > 0, (w) =>
    w.vec(m.exports, (ww, e) => ww.name(e.name).u8(e.kind).varU32(e.index)),
  );
  section(SectionId.start, m.start !== undefined, (w) => w.varU32(m.start ?? 0));
  section(SectionId.element, m.elements.length > 0, (w) => w.vec(m.elements, writeElementSegment));
  section(SectionId.dataCount, m.dataCount !== undefined, (w) => w.varU32(m.dataCount ?? 0));
  section(SectionId.code, m.code.length > 0, (w) => w.vec(m.code, writeFunctionBody));
  section(SectionId.data, m.data !== undefined, (w) => w.bytes(m.data ?? new Uint8Array()));
  return out.finish();
}

function writeImport(w: ByteWriter, i: Import): void {
  w.name(i.module).name(i.name).u8(i.desc.kind);
  switch (i.desc.kind) {
    case ExternalKind.func:
      w.varU32(i.desc.typeIndex);
      return;
    case ExternalKind.table:
      w.u8(i.desc.type.elementType);
      writeLimits(w, i.desc.type.limits);
      return;
    case ExternalKind.memory:
      writeLimits(w, i.desc.limits);
      return;
    case ExternalKind.global:
      writeGlobalType(w, i.desc.type);
      return;
  }
}

function writeElementSegment(w: ByteWriter, s: ElementSegment): void {
  w.varU32(s.flags);
  const passiveOrDeclarative = (s.flags & 1) !== 0;
  if (!passiveOrDeclarative && (s.flags & 2) !== 0) w.varU32(s.tableIndex);
  if (s.offset !== undefined) writeConstExpr(w, s.offset);
  if ((s.flags & 3) !== 0) w.u8(s.exprs !== undefined ? s.elementType : 0x00);
  if (s.exprs !== undefined) w.vec(s.exprs, (ww, e) => writeConstExpr(ww, e));
  else w.vec(s.functionIndices ?? [], (ww, f) => ww.varU32(f));
}

function writeFunctionBody(w: ByteWriter, body: FunctionBody): void {
  const inner = new ByteWriter(body.code.length + 16);
  inner.vec(body.locals, (ww, l) => ww.varU32(l.count).u8(l.type));
  inner.bytes(body.code);
  const bytes = inner.finish();
  w.varU32(bytes.length).bytes(bytes);
}
