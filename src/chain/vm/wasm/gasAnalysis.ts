import { isTrappingNumeric, NUMERIC_EFFECTS } from "./numericEffects.js";
import { Op, type Operator, isMemoryAccess } from "./operators.js";
import { WasmDecodeError } from "./wasmDecodeError.js";
import type { WasmLimits } from "./wasmLimits.js";
import { at } from "../../must.js";

/**
 * finite-wasm's gas analysis (near/finite-wasm `src/gas`), which nearcore's instrumentation
 * consumes: each instruction gets an instrumentation point (offset, kind, fee); points are then
 * merged across runs of pure instructions, so a charge covers a straight-line segment up to and
 * including the next branch, call, trap-capable or side-effecting instruction, and never moves
 * past one. Charged totals therefore equal the fees of the instructions executed, including one
 * that traps.
 */

export const PointKind = {
  /** Before an instruction without observable effects. */
  pure: 0,
  /** In dead code (the operand stack is polymorphic); never charged. */
  unreachable: 1,
  /** Before a branch, branch target, call, trap or other side effect. */
  preControlFlow: 2,
  /** After such an instruction. */
  postControlFlow: 3,
  /** Both after one and before the next. */
  betweenControlFlow: 4,
  /** Before an operation whose cost grows with an operand (bulk memory and table ops). */
  aggregate: 5,
} as const;
export type PointKind = (typeof PointKind)[keyof typeof PointKind];

/** A fee: constant gas plus gas per unit of the operation's count operand. */
export interface Fee {
  readonly constant: number;
  readonly linear: number;
}

export interface GasPoint {
  /** Offset of the instruction the charge goes before, relative to the function's code bytes. */
  readonly offset: number;
  readonly kind: PointKind;
  readonly fee: Fee;
}

const ZERO: Fee = { constant: 0, linear: 0 };

/** nearcore's cost model (prepare_v3.rs `SimpleGasCostCfg`). */
export function instructionFee(code: number, limits: WasmLimits): Fee {
  switch (code) {
    case Op.block:
    case Op.end:
    case Op.else:
      return ZERO;
    case Op.memoryInit:
    case Op.memoryCopy:
    case Op.memoryFill:
    case Op.tableInit:
    case Op.tableCopy:
    case Op.tableFill:
      return { constant: limits.linearOpBaseCost, linear: limits.linearOpUnitCost };
    default:
      return { constant: limits.regularOpCost, linear: 0 };
  }
}

function addFees(a: Fee, b: Fee): Fee {
  return { constant: a.constant + b.constant, linear: a.linear + b.linear };
}

type BranchTarget = { kind: "untaken" } | { kind: "forward" } | { kind: "loop"; pre: number; post: number };

interface GasFrame {
  polymorphic: boolean;
  target: BranchTarget;
}

/** Prices one instruction by its code (`instructionFee` with nearcore's limits in production). */
export type FeeModel = (code: number) => Fee;

export function nearcoreFeeModel(limits: WasmLimits): FeeModel {
  return (code) => instructionFee(code, limits);
}

/**
 * Runs the analysis over one function body and returns its instrumentation points, merged as
 * finite-wasm merges them unless `merge` is false (one point per instruction, for comparison).
 */
export function analyzeGas(ops: readonly Operator[], feeOf: FeeModel, merge = true): GasPoint[] {
  const offsets: number[] = [];
  const kinds: PointKind[] = [];
  const fees: Fee[] = [];
  const frames: GasFrame[] = [];
  let current: GasFrame = { polymorphic: false, target: { kind: "untaken" } };
  let scheduled: { kind: PointKind; fee: Fee } | undefined;
  let offset = 0;

  const before = (kind: PointKind, fee: Fee): void => {
    offsets.push(offset);
    kinds.push(current.polymorphic ? PointKind.unreachable : kind);
    fees.push(fee);
  };
  const after = (kind: PointKind, fee: Fee): void => {
    if (scheduled !== undefined) throw new WasmDecodeError("two charges scheduled after one instruction");
    scheduled = { kind, fee };
  };
  const pure = (fee: Fee): void => before(PointKind.pure, fee);
  const sideEffect = (fee: Fee): void => {
    before(PointKind.preControlFlow, fee);
    after(PointKind.postControlFlow, ZERO);
  };
  const aggregate = (fee: Fee): void => {
    before(PointKind.aggregate, fee);
    after(PointKind.postControlFlow, ZERO);
  };
  const newFrame = (target: BranchTarget): void => {
    frames.push(current);
    current = { polymorphic: current.polymorphic, target };
  };
  const endFrame = (): void => {
    const parent = frames.pop();
    if (parent !== undefined) current = parent;
  };
  const adjustBranchTarget = (depth: number): void => {
    const frame = depth === 0 ? current : frames[frames.length - depth];
    if (frame === undefined) throw new WasmDecodeError("branch to a missing label");
    const target = frame.target;
    if (target.kind === "untaken") frame.target = { kind: "forward" };
    else if (target.kind === "loop") {
      kinds[target.post] = PointKind.postControlFlow;
      kinds[target.pre] = PointKind.preControlFlow;
    }
  };

  for (const op of ops) {
    offset = op.start;
    if (scheduled !== undefined) {
      offsets.push(offset);
      kinds.push(scheduled.kind);
      fees.push(scheduled.fee);
      scheduled = undefined;
    }
    const code = op.code;
    const fee = feeOf(code);
    if (NUMERIC_EFFECTS.has(code)) {
      if (isTrappingNumeric(code)) sideEffect(fee);
      else pure(fee);
      continue;
    }
    if (isMemoryAccess(code)) {
      sideEffect(fee);
      continue;
    }
    switch (code) {
      case Op.unreachable:
        before(PointKind.preControlFlow, fee);
        after(PointKind.unreachable, ZERO);
        current.polymorphic = true;
        break;
      case Op.call:
      case Op.callIndirect:
      case Op.tableGet:
      case Op.tableSet:
        sideEffect(fee);
        break;
      case Op.loop: {
        // Charged after the `loop` itself, because a branch back re-executes it.
        const pre = kinds.length;
        before(PointKind.pure, ZERO);
        const post = kinds.length;
        after(PointKind.pure, fee);
        newFrame({ kind: "loop", pre, post });
        break;
      }
      case Op.end:
        if (current.target.kind === "forward") sideEffect(fee);
        else pure(fee);
        endFrame();
        break;
      case Op.if:
        sideEffect(fee);
        newFrame({ kind: "forward" });
        break;
      case Op.else:
        endFrame();
        newFrame({ kind: "forward" });
        sideEffect(fee);
        break;
      case Op.block:
        pure(fee);
        newFrame({ kind: "untaken" });
        break;
      case Op.br:
        sideEffect(fee);
        adjustBranchTarget(op.depth!);
        current.polymorphic = true;
        break;
      case Op.brIf:
        sideEffect(fee);
        adjustBranchTarget(op.depth!);
        break;
      case Op.brTable:
        sideEffect(fee);
        for (const target of op.targets!) adjustBranchTarget(target);
        adjustBranchTarget(op.depth!);
        current.polymorphic = true;
        break;
      case Op.return:
        sideEffect(fee);
        adjustBranchTarget(frames.length);
        current.polymorphic = true;
        break;
      case Op.memoryGrow:
      case Op.memoryInit:
      case Op.memoryCopy:
      case Op.memoryFill:
      case Op.tableInit:
      case Op.tableCopy:
      case Op.tableFill:
      case Op.tableGrow:
        aggregate(fee);
        break;
      default:
        // Constants, locals, globals, drop, select, nop, ref.*, memory.size, table.size,
        // data.drop and elem.drop.
        pure(fee);
    }
  }
  // A charge scheduled after the function's final `end` has nothing to precede: dropped.
  const points: GasPoint[] = offsets.map((o, i) => ({ offset: o, kind: at(kinds, i), fee: at(fees, i) }));
  return merge ? mergeAcross(mergeSamePoint(points)) : points;
}

function mergeWith(points: GasPoint[], merge: (prev: GasPoint, next: GasPoint) => GasPoint | undefined): GasPoint[] {
  const out: GasPoint[] = [];
  let prev = points[0];
  if (prev === undefined) return out;
  for (let i = 1; i < points.length; i++) {
    const next = at(points, i);
    const merged = merge(prev, next);
    if (merged !== undefined) prev = merged;
    else {
      out.push(prev);
      prev = next;
    }
  }
  out.push(prev);
  return out;
}

const K = PointKind;

function samePointKind(a: PointKind, b: PointKind): PointKind {
  if (a === K.unreachable || b === K.unreachable) return K.unreachable;
  if (a === K.aggregate || b === K.aggregate) return K.aggregate;
  if (a === K.pure) return b;
  if (a === K.preControlFlow) return b === K.preControlFlow || b === K.pure ? K.preControlFlow : K.betweenControlFlow;
  if (a === K.postControlFlow)
    return b === K.postControlFlow || b === K.pure ? K.postControlFlow : K.betweenControlFlow;
  return K.betweenControlFlow;
}

function acrossKind(a: PointKind, b: PointKind): PointKind | undefined {
  if (a === K.pure && b === K.pure) return K.pure;
  if (a === K.unreachable && b === K.unreachable) return K.unreachable;
  if (a === K.postControlFlow && b === K.preControlFlow) return K.betweenControlFlow;
  if (a === K.pure && b === K.preControlFlow) return K.preControlFlow;
  if (a === K.postControlFlow && b === K.pure) return K.postControlFlow;
  return undefined;
}

/** First pass: points at the same offset always merge. */
function mergeSamePoint(points: GasPoint[]): GasPoint[] {
  return mergeWith(points, (prev, next) =>
    prev.offset === next.offset
      ? { offset: prev.offset, kind: samePointKind(prev.kind, next.kind), fee: addFees(prev.fee, next.fee) }
      : undefined,
  );
}

/** Second pass: merge across instructions where the remaining gas cannot be observed in between. */
function mergeAcross(points: GasPoint[]): GasPoint[] {
  return mergeWith(points, (prev, next) => {
    const kind = acrossKind(prev.kind, next.kind);
    if (kind === undefined) return undefined;
    return { offset: Math.min(prev.offset, next.offset), kind, fee: addFees(prev.fee, next.fee) };
  });
}
