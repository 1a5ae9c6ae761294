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
 */
import { ByteReader } from "./byteReader.js";
import { ByteWriter } from "./byteWriter.js";
import type { ConstExpr } from "./constExpr.js";
import { LocalTypes, type ModuleContext, funcType, moduleContext } from "./functionContext.js";
import { type GasPoint, PointKind, analyzeGas } from "./gasAnalysis.js";
import { Op, type Operator, readOperator } from "./operators.js";
import { frameSize, maxOperandStackSize } from "./stackAnalysis.js";
import { WasmDecodeError } from "./wasmDecodeError.js";
import type { WasmLimits } from "./wasmLimits.js";
import type { FunctionBody, Import, WasmModule } from "./wasmModule.js";
import { ExternalKind, type FuncType, ValType, sameFuncType } from "./wasmTypes.js";

export const FINITE_WASM_IMPORT_MODULE = "internal";

/** The host functions an instrumented contract imports from module "internal" (i64 arrive as bigint). */
export interface FiniteWasmImports {
  finite_wasm_gas(gas: bigint): void;
  finite_wasm_stack(operandSize: bigint, frameSize: bigint): void;
  finite_wasm_unstack(operandSize: bigint, frameSize: bigint): void;
}

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

export interface InstrumentedModule {
  readonly module: WasmModule;
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

/**
 * Analyses every function and rewrites the module with metering calls (see the header).
 * `mergeSegments: false` charges every instruction separately (same totals, for comparison).
 */
export function instrumentModule(m: WasmModule, limits: WasmLimits, mergeSegments = true): InstrumentedModule {
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
  const injected: Import[] = [
    { module: FINITE_WASM_IMPORT_MODULE, name: "finite_wasm_gas", desc: { kind: ExternalKind.func, typeIndex: gasType } },
    { module: FINITE_WASM_IMPORT_MODULE, name: "finite_wasm_stack", desc: { kind: ExternalKind.func, typeIndex: stackType } },
    { module: FINITE_WASM_IMPORT_MODULE, name: "finite_wasm_unstack", desc: { kind: ExternalKind.func, typeIndex: stackType } },
  ];

  const metering: FunctionMetering[] = [];
  const code: FunctionBody[] = m.code.map((body, i) => {
    const typeIdx = m.functions[i];
    if (typeIdx === undefined) throw new WasmDecodeError("function without a type");
    const type = funcType(ctx, typeIdx);
    const result = instrumentFunction(body, type, typeIdx, ctx, limits, typeIndex, mergeSegments);
    metering.push(result.metering);
    return result.body;
  });

  const shift = (index: number): number => index + INJECTED_FUNCTIONS;
  const shiftExpr = (e: ConstExpr): ConstExpr => (e.op === "ref.func" ? { op: "ref.func", functionIndex: shift(e.functionIndex) } : e);
  const module: WasmModule = {
    ...m,
    types,
    imports: [...injected, ...m.imports],
    globals: m.globals.map((g) => ({ type: g.type, init: shiftExpr(g.init) })),
    exports: m.exports.map((e) => (e.kind === ExternalKind.func ? { ...e, index: shift(e.index) } : e)),
    start: m.start === undefined ? undefined : shift(m.start),
    elements: m.elements.map((s) => ({
      ...s,
      functionIndices: s.functionIndices?.map(shift),
      exprs: s.exprs?.map(shiftExpr),
    })),
    code,
  };
  return { module, functions: metering };
}

function instrumentFunction(
  body: FunctionBody,
  type: FuncType,
  typeIdx: number,
  ctx: ModuleContext,
  limits: WasmLimits,
  typeIndex: (type: FuncType) => number,
  mergeSegments: boolean,
): { body: FunctionBody; metering: FunctionMetering } {
  const ops = decodeOperators(body.code);
  const locals = new LocalTypes(type.params, body.locals);
  const points = analyzeGas(ops, limits, mergeSegments);
  const operandStackSize = maxOperandStackSize(ops, ctx, locals);
  const frame = frameSize(locals);

  let localCount = type.params.length;
  for (const group of body.locals) localCount += group.count;
  const needsCountLocal = points.some((p) => p.kind !== PointKind.unreachable && p.fee.linear !== 0);
  const countLocal = localCount;

  const w = new ByteWriter(body.code.length * 2 + 64);
  const stackCall = (fn: number): void => {
    w.u8(Op.i64Const).varS64(BigInt(operandStackSize));
    w.u8(Op.i64Const).varS64(BigInt(frame));
    w.u8(Op.call).varU32(fn);
  };

  stackCall(STACK_FN);
  // The body runs inside a block, so branches to the function's outermost label land before
  // the final unstack call instead of leaving the function.
  w.u8(Op.block);
  if (type.results.length === 0) w.u8(0x40);
  else if (type.results.length === 1) w.u8(type.results[0]!);
  else w.varS64(BigInt(type.params.length === 0 ? typeIdx : typeIndex({ params: [], results: type.results })));

  let next = 0;
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    while (next < points.length && points[next]!.offset === op.start) {
      emitCharge(w, points[next]!, countLocal);
      next++;
    }
    switch (op.code) {
      case Op.call:
        w.u8(Op.call).varU32(op.index! + INJECTED_FUNCTIONS);
        break;
      case Op.refFunc:
        w.u8(Op.refFunc).varU32(op.index! + INJECTED_FUNCTIONS);
        break;
      case Op.return:
        stackCall(UNSTACK_FN);
        w.u8(Op.return);
        break;
      default:
        w.bytes(body.code.subarray(op.start, op.end));
    }
  }
  if (next !== points.length) throw new WasmDecodeError("gas point at an offset without an instruction");
  stackCall(UNSTACK_FN);
  w.u8(Op.end);

  const newLocals = needsCountLocal ? [...body.locals, { count: 1, type: ValType.i32 }] : body.locals;
  const code = w.finish();
  return {
    body: { locals: newLocals, code, size: code.length },
    metering: { points, operandStackSize, frameSize: frame },
  };
}

function emitCharge(w: ByteWriter, point: GasPoint, countLocal: number): void {
  if (point.kind === PointKind.unreachable) return;
  const { constant, linear } = point.fee;
  if (constant === 0 && linear === 0) return;
  if (linear === 0) {
    w.u8(Op.i64Const).varS64(BigInt(constant));
    w.u8(Op.call).varU32(GAS_FN);
    return;
  }
  if (point.kind !== PointKind.aggregate) throw new WasmDecodeError("linear fee outside an aggregate operation");
  // The count operand is on top of the stack: keep it, charge count × linear + constant.
  w.u8(Op.localTee).varU32(countLocal);
  w.u8(0xad); // i64.extend_i32_u
  w.u8(Op.i64Const).varS64(BigInt(linear));
  w.u8(0x7e); // i64.mul
  w.u8(Op.i64Const).varS64(BigInt(constant));
  w.u8(0x7c); // i64.add
  w.u8(Op.call).varU32(GAS_FN);
  w.u8(Op.localGet).varU32(countLocal);
}
