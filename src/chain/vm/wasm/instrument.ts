/**
 * Gas and stack metering of prepared contracts, equal to nearcore's finite-wasm
 * instrumentation (runtime/near-vm-runner/src/prepare/instrument_v3.rs, "adapted from
 * near/finite-wasm"), with the charges made through host functions as nearcore's
 * import-based finite-wasm instrumentation did.
 *
 * Injected imports (module "internal", so a contract cannot import them through "env"); they
 * take the function indices 0, 1 and 2 and every other function index moves up by 3:
 *
 *   internal.finite_wasm_gas(gas: i64)
 *     Charge `gas` (already in gas units, i.e. fees summed over a straight-line segment, each
 *     instruction costing regular_op_cost; bulk memory/table operations cost
 *     linear_op_base_cost + count × linear_op_unit_cost with count their length operand).
 *     Called at the start of each segment, before any of its instructions runs. The host burns
 *     the gas (logic.rs `finite_wasm_gas` → `gas`); when it does not fit the remaining budget
 *     the host burns up to the limit and fails with GasExceeded / GasLimitExceeded.
 *
 *   internal.finite_wasm_stack(operand_size: i64, frame_size: i64)
 *     Called on entry to every defined function, before its first gas charge. The host
 *     subtracts operand_size + frame_size from the remaining stack (starting at
 *     max_stack_height); if that underflows it fails (nearcore's host answers HostError
 *     MemoryAccessViolation), otherwise it charges ((frame_size + 7) / 8) × regular_op_cost gas.
 *
 *   internal.finite_wasm_unstack(operand_size: i64, frame_size: i64)
 *     Called on every exit from the function (each `return` and the end of the body): the host
 *     gives the same amount of stack back. No gas.
 *
 * frame_size = 64 + Σ sizes of parameters and locals; operand_size = the function's largest
 * operand stack; sizes are 4 bytes for i32/f32 and 8 for i64/f64/references.
 *
 * Float results that may be NaN are canonicalised (to 0x7fc00000 / 0x7ff8000000000000), as
 * nearcore's compilers are configured to do: V8 keeps the hardware's NaN sign and payload,
 * which a contract can observe (copysign, reinterpret) and which would make results differ
 * between machines. The added code is not metered (nearcore charges the original instructions).
 */
import { ByteReader } from "./byteReader.js";
import { ByteWriter } from "./byteWriter.js";
import { type ConstExpr, readConstExpr, writeConstExpr } from "./constExpr.js";
import { LocalTypes, type ModuleContext, funcType, moduleContext } from "./functionContext.js";
import { type FeeModel, type GasPoint, PointKind, analyzeGas, nearcoreFeeModel } from "./gasAnalysis.js";
import { isTrappingNumeric } from "./numericEffects.js";
import { Op, type Operator, isMemoryAccess, readOperator } from "./operators.js";
import { type BulkLoop, emitBulkLoop, findBulkLoops } from "./bulkLoops.js";
import { frameSize, maxOperandStackSize } from "./stackAnalysis.js";
import { WasmDecodeError } from "./wasmDecodeError.js";
import type { WasmLimits } from "./wasmLimits.js";
import type { Export, FunctionBody, Import, WasmModule } from "./wasmModule.js";
import { ExternalKind, type FuncType, ValType, sameFuncType } from "./wasmTypes.js";
import { at } from "../../must.js";

export const FINITE_WASM_IMPORT_MODULE = "internal";

/** The host functions an instrumented contract imports from module "internal" (i64 arrive as bigint). */
export interface FiniteWasmImports {
  finite_wasm_gas(gas: bigint): void;
  finite_wasm_stack(operandSize: bigint, frameSize: bigint): void;
  finite_wasm_unstack(operandSize: bigint, frameSize: bigint): void;
}

/** Float operators whose result may be a freshly made NaN (cranelift's NaN canonicalisation set). */
const F32_NAN_PRODUCERS: ReadonlySet<number> = new Set([
  0x8d, 0x8e, 0x8f, 0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0xb6,
]);
const F64_NAN_PRODUCERS: ReadonlySet<number> = new Set([
  0x9b, 0x9c, 0x9d, 0x9e, 0x9f, 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xbb,
]);
const CANONICAL_F32_NAN = Uint8Array.from([0x00, 0x00, 0xc0, 0x7f]);
const CANONICAL_F64_NAN = Uint8Array.from([0, 0, 0, 0, 0, 0, 0xf8, 0x7f]);

const GAS_FN = 0;
const STACK_FN = 1;
const UNSTACK_FN = 2;
const INJECTED_FUNCTIONS = 3;

/** Per-function figures of the analysis, exposed for tests and diagnostics. */
export interface FunctionMetering {
  readonly points: readonly GasPoint[];
  readonly operandStackSize: number;
  readonly frameSize: number;
}

/**
 * Where a call can have written guest memory, so a reused memory needs clearing only below
 * `end` (MemoryPool). Every store adds `if (addr > mark) mark = addr` on its address operand
 * into an injected mutable i32 global, exported as `markExport`; the call wrote nothing at or
 * above max(mark + storeReach, dataEnd, what the host wrote). Absent when the contract can
 * write memory in bulk (memory.fill/copy/init) or has data segments at non-constant offsets:
 * then the whole memory has to be checked.
 */
export interface WriteTracking {
  readonly markExport: string;
  /** Largest memarg offset + access width over all stores (0 without stores). */
  readonly storeReach: number;
  /** End of the furthest active data segment (written at instantiation). */
  readonly dataEnd: number;
}

/** The injected write mark's export name (not a method: methods come from the original exports). */
export const WRITE_MARK_EXPORT = "\u0000shardkit:write_mark";

/** An active data segment: `bytes` written at `offset` when the module is instantiated. */
export interface DataSegment {
  readonly offset: number;
  readonly bytes: Uint8Array;
}

/**
 * An instance of the module can serve call after call, with its memory: after a call the host
 * clears the written prefix, writes the data segments again and calls `resetExport`, which
 * puts every mutable global back to its initial value. Only for modules whose other instance
 * state cannot change (no table.set / bulk memory or table operations) and whose writes are
 * tracked; each call still runs the start function (the host calls it, see GasGlobals).
 */
export interface InstanceReuse {
  readonly resetExport: string;
  readonly dataSegments: readonly DataSegment[];
}

export const RESET_EXPORT = "\u0000shardkit:reset";

export interface InstrumentedModule {
  readonly module: WasmModule;
  readonly instanceReuse: InstanceReuse | undefined;
  readonly writeTracking: WriteTracking | undefined;
  readonly gasGlobals: GasGlobals | undefined;
  /** One entry per defined function, in code section order. */
  readonly functions: readonly FunctionMetering[];
}

export function decodeOperators(code: Uint8Array): Operator[] {
  const reader = new ByteReader(code);
  const ops: Operator[] = [];
  while (!reader.eof) ops.push(readOperator(reader, 0));
  const last = ops[ops.length - 1];
  if (last === undefined || last.code !== Op.end) throw new WasmDecodeError("function body must end with `end`");
  return ops;
}

export interface InstrumentOptions {
  /** false: charge every instruction separately (same totals; for comparison in tests). */
  readonly mergeSegments?: boolean;
  /** Instruction prices; nearcore's by default (finite-wasm's own tests price everything 1). */
  readonly fee?: FeeModel;
  /** false: no write mark (see WriteTracking). */
  readonly trackWrites?: boolean;
  /** false: no reset function (see InstanceReuse). */
  readonly reuseInstances?: boolean;
  /**
   * false: charge every segment through the host (`finite_wasm_gas`/`_stack`/`_unstack`), as
   * described in the header. Default (true): the
   * gas and stack counters live in wasm globals (see GasGlobals).
   */
  readonly gasInGlobals?: boolean;
  /**
   * false: no bulk fast path for byte loops (bulkLoops.ts). Default (true, with gas in
   * globals): recognised memmove/memset byte loops run as memory.copy/fill with one charge
   * when that cannot differ from the per-iteration charges.
   */
  readonly bulkLoops?: boolean;
  /**
   * false: every charge reads and writes the gas global. Default (true, with gas in globals):
   * each function keeps the counter in a local, loaded at entry and after calls, and writes it
   * back to the global before anything the host can observe it at: calls (host functions read
   * it, callees continue it), instructions that can trap (the host reads it after a trap),
   * gas checkpoints and exits. Charges are the same, in the same order.
   */
  readonly counterLocals?: boolean;
}

/**
 * Gas and stack counters kept inside the instance (the default). Each segment does
 * `gas -= fee; if (gas < 0) internal.gas_checkpoint(fee)`; function entry does
 * `if (stack <u need) internal.finite_wasm_stack_exhausted(); stack -= need` followed by the
 * frame's gas charge, exits `stack += need`. The exported i64 `gas` global holds what may be
 * burnt before the host must be asked (armed by the host: see VmLogic's wasm-gas methods); the
 * host settles the difference before each host call and at the end of the call, so the host's
 * GasCounter sees the same charges in the same order as with host-call metering: burnt gas,
 * profiles and errors stay equal. A start function is exported instead of declared (it would
 * run before the host could arm the counter) and the host calls it right after instantiation.
 */
export interface GasGlobals {
  readonly gasExport: string;
  /** The module's start function, to be called by the host once the counter is armed. */
  readonly startExport: string | undefined;
}

export const GAS_GLOBAL_EXPORT = "\u0000shardkit:gas";
export const START_EXPORT = "\u0000shardkit:start";

/** Analyses every function and rewrites the module with metering calls (see the header). */
export function instrumentModule(
  m: WasmModule,
  limits: WasmLimits,
  options: InstrumentOptions = {},
): InstrumentedModule {
  const mergeSegments = options.mergeSegments ?? true;
  const feeOf = options.fee ?? nearcoreFeeModel(limits);
  const ctx = moduleContext(m);
  const types = [...m.types];
  const typeIndex = (type: FuncType): number => {
    const found = types.findIndex((t) => sameFuncType(t, type));
    if (found >= 0) return found;
    types.push(type);
    return types.length - 1;
  };
  const gasType = typeIndex({ params: [ValType.i64], results: [] });
  const stackType = typeIndex({ params: [ValType.i64, ValType.i64], results: [] });
  const inGlobals =
    (options.gasInGlobals ?? true) && !m.exports.some((e) => e.name === GAS_GLOBAL_EXPORT || e.name === START_EXPORT);
  // The start function must not run before the host arms the gas counter: it is exported
  // instead and the host calls it right after instantiation (before anything else runs).
  const exportStart = inGlobals && m.start !== undefined;
  const injected: Import[] = [
    {
      module: FINITE_WASM_IMPORT_MODULE,
      name: inGlobals ? "gas_checkpoint" : "finite_wasm_gas",
      desc: { kind: ExternalKind.func, typeIndex: gasType },
    },
    inGlobals
      ? {
          module: FINITE_WASM_IMPORT_MODULE,
          name: "finite_wasm_stack_exhausted",
          desc: { kind: ExternalKind.func, typeIndex: typeIndex({ params: [], results: [] }) },
        }
      : {
          module: FINITE_WASM_IMPORT_MODULE,
          name: "finite_wasm_stack",
          desc: { kind: ExternalKind.func, typeIndex: stackType },
        },
    {
      module: FINITE_WASM_IMPORT_MODULE,
      name: "finite_wasm_unstack",
      desc: { kind: ExternalKind.func, typeIndex: stackType },
    },
  ];

  const data = options.trackWrites === false ? undefined : activeData(m.data);
  const dataEnd = data?.end;
  const trackable =
    dataEnd !== undefined &&
    !m.exports.some((e) => e.name === WRITE_MARK_EXPORT) &&
    !m.code.some((body) => decodeOperators(body.code).some((op) => BULK_MEMORY_WRITES.has(op.code)));
  // No global is imported (preparation refuses global imports): injected globals follow the module's.
  const counters: Counters | undefined = inGlobals
    ? { gas: m.globals.length, stack: m.globals.length + 1, regularOpCost: limits.regularOpCost, inLocal: options.counterLocals ?? true }
    : undefined;
  const mark = trackable ? { global: m.globals.length + (inGlobals ? 2 : 0), reach: 0 } : undefined;

  // Reusable instances (InstanceReuse): memory and globals can be put back; tables never change.
  const reusable =
    mark !== undefined &&
    counters !== undefined &&
    (options.reuseInstances ?? true) &&
    !m.exports.some((e) => e.name === RESET_EXPORT) &&
    !m.code.some((body) => decodeOperators(body.code).some((op) => op.code === TABLE_SET || op.code >= Op.memoryInit));

  const metering: FunctionMetering[] = [];
  const code: FunctionBody[] = m.code.map((body, i) => {
    const typeIdx = m.functions[i];
    if (typeIdx === undefined) throw new WasmDecodeError("function without a type");
    const type = funcType(ctx, typeIdx);
    const result = instrumentFunction(body, type, typeIdx, ctx, feeOf, typeIndex, mergeSegments, mark, counters, options.bulkLoops ?? true);
    metering.push(result.metering);
    return result.body;
  });

  const shift = (index: number): number => index + INJECTED_FUNCTIONS;
  const shiftExpr = (e: ConstExpr): ConstExpr =>
    e.op === "ref.func" ? { op: "ref.func", functionIndex: shift(e.functionIndex) } : e;
  const globals = [
    ...m.globals.map((g) => ({ type: g.type, init: shiftExpr(g.init) })),
    ...(counters === undefined
      ? []
      : [
          { type: { valType: ValType.i64, mutable: true }, init: { op: "i64.const" as const, value: 0n } },
          { type: { valType: ValType.i64, mutable: true }, init: { op: "i64.const" as const, value: BigInt(limits.maxStackHeight) } },
        ]),
    ...(mark === undefined ? [] : [{ type: { valType: ValType.i32, mutable: true }, init: { op: "i32.const" as const, value: 0 } }]),
  ];
  const functions = [...m.functions];
  const resetExports: Export[] = [];
  if (reusable) {
    // A function (not metered: the host calls it between calls) putting every mutable global back to its initial value.
    const w = new ByteWriter(16 * globals.length + 8);
    globals.forEach((g, index) => {
      if (!g.type.mutable) return;
      const init = new ByteWriter(16);
      writeConstExpr(init, g.init);
      const bytes = init.finish();
      w.bytes(bytes.subarray(0, bytes.length - 1)).u8(0x24).varU32(index); // without its `end`; global.set
    });
    w.u8(Op.end);
    const body = w.finish();
    const importedFunctions = m.imports.filter((i) => i.desc.kind === ExternalKind.func).length;
    functions.push(typeIndex({ params: [], results: [] }));
    code.push({ locals: [], code: body, size: body.length });
    resetExports.push({ name: RESET_EXPORT, kind: ExternalKind.func, index: INJECTED_FUNCTIONS + importedFunctions + code.length - 1 });
  }
  const module: WasmModule = {
    ...m,
    types,
    imports: [...injected, ...m.imports],
    functions,
    globals,
    exports: [
      ...m.exports.map((e) => (e.kind === ExternalKind.func ? { ...e, index: shift(e.index) } : e)),
      ...(mark === undefined ? [] : [{ name: WRITE_MARK_EXPORT, kind: ExternalKind.global, index: mark.global }]),
      ...(counters === undefined ? [] : [{ name: GAS_GLOBAL_EXPORT, kind: ExternalKind.global, index: counters.gas }]),
      ...(exportStart ? [{ name: START_EXPORT, kind: ExternalKind.func, index: shift(m.start!) }] : []),
      ...resetExports,
    ],
    start: m.start === undefined || exportStart ? undefined : shift(m.start),
    elements: m.elements.map((s) => ({
      ...s,
      functionIndices: s.functionIndices?.map(shift),
      exprs: s.exprs?.map(shiftExpr),
    })),
    code,
  };
  const writeTracking =
    mark === undefined || dataEnd === undefined ? undefined : { markExport: WRITE_MARK_EXPORT, storeReach: mark.reach, dataEnd };
  const instanceReuse = reusable && data !== undefined ? { resetExport: RESET_EXPORT, dataSegments: data.segments } : undefined;
  return { module, functions: metering, writeTracking, instanceReuse, gasGlobals: inGlobals ? { gasExport: GAS_GLOBAL_EXPORT, startExport: exportStart ? START_EXPORT : undefined } : undefined };
}

/** Indices of the injected counter globals (GasGlobals) and the price of a stack frame's 8 bytes. */
interface Counters {
  readonly gas: number;
  readonly stack: number;
  readonly regularOpCost: number;
  /** InstrumentOptions.counterLocals. */
  readonly inLocal: boolean;
}

/**
 * Instructions after which the gas global may be stale with counterLocals: they can neither
 * trap nor call nor leave the function. Everything else gets the local written back first.
 */
function keepsGasLocal(code: number): boolean {
  if (code === Op.unreachable || code === Op.call || code === Op.callIndirect || code === Op.return) return false;
  if (code === Op.tableGet || code === Op.tableSet || code >= 0xfc00) return false;
  return !isMemoryAccess(code) && !isTrappingNumeric(code);
}

const BULK_MEMORY_WRITES: ReadonlySet<number> = new Set([Op.memoryInit, Op.memoryCopy, Op.memoryFill]);

/** Store opcodes (0x36-0x3E): the value type they pop and their access width in bytes. */
const STORES: Readonly<Record<number, { type: ValType; width: number }>> = {
  0x36: { type: ValType.i32, width: 4 },
  0x37: { type: ValType.i64, width: 8 },
  0x38: { type: ValType.f32, width: 4 },
  0x39: { type: ValType.f64, width: 8 },
  0x3a: { type: ValType.i32, width: 1 },
  0x3b: { type: ValType.i32, width: 2 },
  0x3c: { type: ValType.i64, width: 1 },
  0x3d: { type: ValType.i64, width: 2 },
  0x3e: { type: ValType.i64, width: 4 },
};

const TABLE_SET = 0x26;

/**
 * The active data segments of a raw data section and the end of the furthest, or undefined
 * when an offset is not a constant (then writes cannot be bounded).
 */
function activeData(data: Uint8Array | undefined): { end: number; segments: DataSegment[] } | undefined {
  if (data === undefined) return { end: 0, segments: [] };
  const r = new ByteReader(data);
  let end = 0;
  const segments: DataSegment[] = [];
  for (let n = r.varU32(); n > 0; n--) {
    const flags = r.varU32();
    if (flags === 1) {
      r.take(r.varU32()); // passive: written only by memory.init (not tracked)
      continue;
    }
    if (flags === 2) r.varU32();
    else if (flags !== 0) throw new WasmDecodeError("invalid data segment flags");
    const offset = readConstExpr(r);
    const length = r.varU32();
    const bytes = r.take(length);
    if (offset.op !== "i32.const") return undefined;
    end = Math.max(end, (offset.value >>> 0) + length);
    segments.push({ offset: offset.value >>> 0, bytes });
  }
  return { end, segments };
}

function instrumentFunction(
  body: FunctionBody,
  type: FuncType,
  typeIdx: number,
  ctx: ModuleContext,
  feeOf: FeeModel,
  typeIndex: (type: FuncType) => number,
  mergeSegments: boolean,
  mark: { readonly global: number; reach: number } | undefined,
  counters: Counters | undefined,
  bulkLoops: boolean,
): { body: FunctionBody; metering: FunctionMetering } {
  const ops = decodeOperators(body.code);
  const locals = new LocalTypes(type.params, body.locals);
  const points = analyzeGas(ops, feeOf, mergeSegments);
  const operandStackSize = maxOperandStackSize(ops, ctx, locals);
  const frame = frameSize(locals);

  let localCount = type.params.length;
  for (const group of body.locals) localCount += group.count;
  const needsCountLocal = points.some((p) => p.kind !== PointKind.unreachable && p.fee.linear !== 0);
  const needsF32 = ops.some((op) => F32_NAN_PRODUCERS.has(op.code));
  const needsF64 = ops.some((op) => F64_NAN_PRODUCERS.has(op.code));
  const countLocal = localCount;
  const f32Local = countLocal + (needsCountLocal ? 1 : 0);
  const f64Local = f32Local + (needsF32 ? 1 : 0);
  // Write mark scratch locals: the address, and the stored value of each type the body stores.
  const storeTypes = new Set<ValType>();
  if (mark !== undefined) for (const op of ops) {
    const store = STORES[op.code];
    if (store !== undefined) storeTypes.add(store.type);
  }
  const markLocals: ValType[] = storeTypes.size === 0 ? [] : [ValType.i32, ...storeTypes];
  const addrLocal = f64Local + (needsF64 ? 1 : 0);
  const valueTypes = [...storeTypes];
  // Inline linear charges keep the computed fee in an i64 scratch local.
  const feeLocal = addrLocal + markLocals.length;
  const needsFeeLocal = counters !== undefined && needsCountLocal;
  const valueLocal = (type: ValType): number => addrLocal + 1 + valueTypes.indexOf(type);
  // Byte loops with a bulk fast path (gas in globals only), and their i64 fee / i32 address scratch locals.
  const loops = new Map<number, BulkLoop>();
  if (counters !== undefined && bulkLoops) for (const loop of findBulkLoops(ops, points, locals)) loops.set(loop.start, loop);
  const bulkFeeLocal = feeLocal + (needsFeeLocal ? 1 : 0);
  const bulkLastLocal = bulkFeeLocal + 1;
  // counterLocals: the gas counter's local, and how it goes to and from the global.
  const gasInLocal = counters !== undefined && counters.inLocal;
  const gasLocal = bulkFeeLocal + (loops.size > 0 ? 2 : 0);
  const writeBack = (): void => {
    if (gasInLocal) w.u8(Op.localGet).varU32(gasLocal).u8(GLOBAL_SET).varU32(counters.gas);
  };
  const reload = (): void => {
    if (gasInLocal) w.u8(GLOBAL_GET).varU32(counters.gas).u8(Op.localSet).varU32(gasLocal);
  };

  const w = new ByteWriter(body.code.length * 2 + 64);
  const need = BigInt(operandStackSize) + BigInt(frame);
  const stackCall = (fn: number): void => {
    if (counters !== undefined) {
      // stack += need (unstack); the entry's check is below.
      w.u8(GLOBAL_GET).varU32(counters.stack).u8(Op.i64Const).varS64(need).u8(I64_ADD).u8(GLOBAL_SET).varU32(counters.stack);
      return;
    }
    w.u8(Op.i64Const).varSafeInt(operandStackSize);
    w.u8(Op.i64Const).varSafeInt(frame);
    w.u8(Op.call).varU32(fn);
  };

  if (counters === undefined) stackCall(STACK_FN);
  else {
    // finite_wasm_stack inline: overflow check first, then the frame's gas.
    w.u8(GLOBAL_GET).varU32(counters.stack).u8(Op.i64Const).varS64(need).u8(I64_LT_U);
    w.u8(Op.if).u8(0x40).u8(Op.call).varU32(STACK_FN).u8(Op.end);
    w.u8(GLOBAL_GET).varU32(counters.stack).u8(Op.i64Const).varS64(need).u8(I64_SUB).u8(GLOBAL_SET).varU32(counters.stack);
    const frameFee = ((BigInt(frame) + 7n) / 8n) * BigInt(counters.regularOpCost);
    if (frameFee > 0n) emitConstCharge(w, counters.gas, frameFee);
  }
  reload();
  // The body runs inside a block, so branches to the function's outermost label land before
  // the final unstack call instead of leaving the function.
  w.u8(Op.block);
  if (type.results.length === 0) w.u8(0x40);
  else if (type.results.length === 1) w.u8(at(type.results, 0));
  else w.varSafeInt(type.params.length === 0 ? typeIdx : typeIndex({ params: [], results: type.results }));

  // Original bytes are copied in runs; `copied` is where the next run starts.
  const code = body.code;
  let copied = 0;
  const copyUpTo = (end: number): void => {
    if (end > copied) w.bytes(code.subarray(copied, end));
    copied = end;
  };
  let next = 0;
  for (const op of ops) {
    if (next < points.length && at(points, next).offset === op.start) {
      copyUpTo(op.start);
      while (next < points.length && at(points, next).offset === op.start) {
        if (counters === undefined) emitCharge(w, at(points, next++), countLocal);
        else emitGlobalPoint(w, at(points, next++), countLocal, feeLocal, counters.gas, gasInLocal ? gasLocal : undefined);
      }
    }
    const loop = op.code === Op.loop ? loops.get(op.start) : undefined;
    if (loop !== undefined) {
      copyUpTo(op.start);
      writeBack();
      emitBulkLoop(w, loop, { gas: counters!.gas, mark: mark?.global }, bulkFeeLocal, bulkLastLocal);
      reload();
    }
    if (gasInLocal && !keepsGasLocal(op.code)) {
      copyUpTo(op.start);
      writeBack();
    }
    switch (op.code) {
      case Op.call:
        copyUpTo(op.start);
        w.u8(Op.call).varU32(op.index! + INJECTED_FUNCTIONS);
        copied = op.end;
        reload();
        break;
      case Op.callIndirect:
        copyUpTo(op.end);
        reload();
        break;
      case Op.refFunc:
        copyUpTo(op.start);
        w.u8(Op.refFunc).varU32(op.index! + INJECTED_FUNCTIONS);
        copied = op.end;
        break;
      case Op.return:
        copyUpTo(op.start);
        stackCall(UNSTACK_FN);
        w.u8(Op.return);
        copied = op.end;
        break;
      default: {
        const store = STORES[op.code];
        if (mark !== undefined && store !== undefined) {
          mark.reach = Math.max(mark.reach, (op.offset ?? 0) + store.width);
          copyUpTo(op.start);
          // [addr, value] → keep addr in a local, store, then raise the mark to addr.
          w.u8(Op.localSet).varU32(valueLocal(store.type));
          w.u8(Op.localTee).varU32(addrLocal);
          w.u8(Op.localGet).varU32(valueLocal(store.type));
          copyUpTo(op.end);
          w.u8(Op.localGet).varU32(addrLocal);
          w.u8(0x23).varU32(mark.global); // global.get
          w.u8(0x4b); // i32.gt_u
          w.u8(Op.if).u8(0x40);
          w.u8(Op.localGet).varU32(addrLocal);
          w.u8(0x24).varU32(mark.global); // global.set
          w.u8(Op.end);
        } else if (F32_NAN_PRODUCERS.has(op.code)) {
          copyUpTo(op.end);
          canonicaliseNaN(w, f32Local, 0x43, CANONICAL_F32_NAN, 0x5b);
        } else if (F64_NAN_PRODUCERS.has(op.code)) {
          copyUpTo(op.end);
          canonicaliseNaN(w, f64Local, 0x44, CANONICAL_F64_NAN, 0x61);
        }
      }
    }
  }
  // The body's own final `end` closes the wrapping block.
  copyUpTo(code.length);
  if (next !== points.length) throw new WasmDecodeError("gas point at an offset without an instruction");
  writeBack();
  stackCall(UNSTACK_FN);
  w.u8(Op.end);

  const newLocals = [...body.locals];
  if (needsCountLocal) newLocals.push({ count: 1, type: ValType.i32 });
  if (needsF32) newLocals.push({ count: 1, type: ValType.f32 });
  if (needsF64) newLocals.push({ count: 1, type: ValType.f64 });
  for (const type of markLocals) newLocals.push({ count: 1, type });
  if (needsFeeLocal) newLocals.push({ count: 1, type: ValType.i64 });
  if (loops.size > 0) newLocals.push({ count: 1, type: ValType.i64 }, { count: 1, type: ValType.i32 });
  if (gasInLocal) newLocals.push({ count: 1, type: ValType.i64 });
  const newCode = w.finish();
  return {
    body: { locals: newLocals, code: newCode, size: newCode.length },
    metering: { points, operandStackSize, frameSize: frame },
  };
}

/** [x] → [x == x ? x : canonical NaN], using a scratch local of x's type. */
function canonicaliseNaN(w: ByteWriter, scratch: number, constOp: number, nan: Uint8Array, eqOp: number): void {
  w.u8(Op.localTee).varU32(scratch);
  w.u8(constOp).bytes(nan);
  w.u8(Op.localGet).varU32(scratch);
  w.u8(Op.localGet).varU32(scratch);
  w.u8(eqOp);
  w.u8(Op.select);
}

const GLOBAL_GET = 0x23;
const GLOBAL_SET = 0x24;
const I64_LT_S = 0x53;
const I64_LT_U = 0x54;
const I64_ADD = 0x7c;
const I64_SUB = 0x7d;

/** gas -= fee; if (gas < 0) gas_checkpoint(fee). */
function emitConstCharge(w: ByteWriter, gas: number, fee: bigint): void {
  w.u8(GLOBAL_GET).varU32(gas).u8(Op.i64Const).varS64(fee).u8(I64_SUB).u8(GLOBAL_SET).varU32(gas);
  w.u8(GLOBAL_GET).varU32(gas).u8(Op.i64Const).u8(0).u8(I64_LT_S);
  w.u8(Op.if).u8(0x40).u8(Op.i64Const).varS64(fee).u8(Op.call).varU32(GAS_FN).u8(Op.end);
}

/**
 * counterLocals: local -= fee; if (local < 0) { global = local; gas_checkpoint(fee); local = global }.
 * `fee` pushes the fee.
 */
function emitLocalCharge(w: ByteWriter, gas: number, local: number, fee: () => void): void {
  w.u8(Op.localGet).varU32(local);
  fee();
  w.u8(I64_SUB).u8(Op.localTee).varU32(local).u8(Op.i64Const).u8(0).u8(I64_LT_S);
  w.u8(Op.if).u8(0x40);
  w.u8(Op.localGet).varU32(local).u8(GLOBAL_SET).varU32(gas);
  fee();
  w.u8(Op.call).varU32(GAS_FN);
  w.u8(GLOBAL_GET).varU32(gas).u8(Op.localSet).varU32(local);
  w.u8(Op.end);
}

/** A gas point charged against the gas global (GasGlobals), or its function local (counterLocals). */
function emitGlobalPoint(w: ByteWriter, point: GasPoint, countLocal: number, feeLocal: number, gas: number, gasLocal: number | undefined): void {
  if (point.kind === PointKind.unreachable) return;
  const { constant, linear } = point.fee;
  if (constant === 0 && linear === 0) return;
  if (linear === 0) {
    if (gasLocal === undefined) emitConstCharge(w, gas, BigInt(constant));
    else emitLocalCharge(w, gas, gasLocal, () => w.u8(Op.i64Const).varS64(BigInt(constant)));
    return;
  }
  emitLinearFee(w, point, countLocal);
  w.u8(Op.localSet).varU32(feeLocal);
  if (gasLocal !== undefined) emitLocalCharge(w, gas, gasLocal, () => w.u8(Op.localGet).varU32(feeLocal));
  else {
    w.u8(GLOBAL_GET).varU32(gas).u8(Op.localGet).varU32(feeLocal).u8(I64_SUB).u8(GLOBAL_SET).varU32(gas);
    w.u8(GLOBAL_GET).varU32(gas).u8(Op.i64Const).u8(0).u8(I64_LT_S);
    w.u8(Op.if).u8(0x40).u8(Op.localGet).varU32(feeLocal).u8(Op.call).varU32(GAS_FN).u8(Op.end);
  }
  w.u8(Op.localGet).varU32(countLocal);
}

/**
 * An aggregate operation's fee, count × linear + constant, as an i64 on the stack; the count
 * operand (on top of the stack) is kept in `countLocal`, for the operation to get it back.
 */
function emitLinearFee(w: ByteWriter, point: GasPoint, countLocal: number): void {
  if (point.kind !== PointKind.aggregate) throw new WasmDecodeError("linear fee outside an aggregate operation");
  w.u8(Op.localTee).varU32(countLocal);
  w.u8(0xad); // i64.extend_i32_u
  w.u8(Op.i64Const).varSafeInt(point.fee.linear);
  w.u8(0x7e); // i64.mul
  w.u8(Op.i64Const).varSafeInt(point.fee.constant);
  w.u8(I64_ADD);
}

function emitCharge(w: ByteWriter, point: GasPoint, countLocal: number): void {
  if (point.kind === PointKind.unreachable) return;
  const { constant, linear } = point.fee;
  if (constant === 0 && linear === 0) return;
  if (linear === 0) {
    w.u8(Op.i64Const).varSafeInt(constant);
    w.u8(Op.call).varU32(GAS_FN);
    return;
  }
  emitLinearFee(w, point, countLocal);
  w.u8(Op.call).varU32(GAS_FN);
  w.u8(Op.localGet).varU32(countLocal);
}
