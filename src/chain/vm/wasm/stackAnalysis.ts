import { type ModuleContext, type LocalTypes, blockSignature, funcType, functionType } from "./functionContext.js";
import { NUMERIC_EFFECTS } from "./numericEffects.js";
import { type BlockType, Op, type Operator, isMemoryAccess } from "./operators.js";
import { WasmDecodeError } from "./wasmDecodeError.js";
import { type FuncType, ValType } from "./wasmTypes.js";
import { at } from "../../must.js";

/**
 * Stack accounting of finite-wasm's `max_stack` analysis with nearcore's size configuration
 * (prepare_v3.rs `SimpleMaxStackCfg`): every call charges the callee's frame (a 64-byte
 * activation record plus its parameters and locals) and its maximum operand stack depth in bytes.
 */

/** Bytes a value takes on nearcore's stack model. */
export function valueSize(type: ValType): number {
  return type === ValType.i32 || type === ValType.f32 ? 4 : 8;
}

/** 64 bytes (return address, frame pointer, spilled registers) plus every parameter and local. */
export function frameSize(locals: LocalTypes): number {
  let size = 64;
  for (const run of locals.runs()) size += run.count * valueSize(run.type);
  return size;
}

interface StackFrame {
  readonly height: number;
  readonly blockType: BlockType;
  polymorphic: boolean;
}

const LOAD_RESULTS: Readonly<Record<number, ValType>> = {
  0x28: ValType.i32,
  0x29: ValType.i64,
  0x2a: ValType.f32,
  0x2b: ValType.f64,
  0x2c: ValType.i32,
  0x2d: ValType.i32,
  0x2e: ValType.i32,
  0x2f: ValType.i32,
  0x30: ValType.i64,
  0x31: ValType.i64,
  0x32: ValType.i64,
  0x33: ValType.i64,
  0x34: ValType.i64,
  0x35: ValType.i64,
};

/**
 * The largest operand stack (in bytes) a function body can build, following finite-wasm's
 * simulation exactly, quirks included: operands are not tracked while the stack is
 * polymorphic, and `call_indirect` pops only the callee's parameters (its table index stays
 * counted until the enclosing block ends).
 */
export function maxOperandStackSize(ops: readonly Operator[], ctx: ModuleContext, locals: LocalTypes): number {
  const operands: number[] = [];
  let size = 0;
  let max = 0;
  const frames: StackFrame[] = [];
  let current: StackFrame = { height: 0, blockType: { kind: "empty" }, polymorphic: false };

  const push = (type: ValType): void => {
    if (current.polymorphic) return;
    const s = valueSize(type);
    operands.push(s);
    size += s;
    if (size > max) max = size;
  };
  const popMany = (count: number): void => {
    if (count === 0 || current.polymorphic) return;
    if (count > operands.length) throw new WasmDecodeError("operand stack underflow in stack analysis");
    for (let i = 0; i < count; i++) size -= operands.pop()!;
  };
  const pop = (): void => popMany(1);
  const newFrame = (blockType: BlockType, shift: number): void => {
    const height = operands.length - shift;
    if (height < 0) throw new WasmDecodeError("operand stack underflow in stack analysis");
    frames.push(current);
    current = { height, blockType, polymorphic: current.polymorphic };
  };
  const endFrame = (): StackFrame | undefined => {
    const parent = frames.pop();
    if (parent === undefined) return undefined;
    const ended = current;
    current = parent;
    popMany(operands.length - ended.height);
    return ended;
  };
  const call = (type: FuncType): void => {
    popMany(type.params.length);
    for (const r of type.results) push(r);
  };

  for (const op of ops) {
    const code = op.code;
    const numeric = NUMERIC_EFFECTS.get(code);
    if (numeric !== undefined) {
      popMany(numeric.pops);
      push(numeric.push);
      continue;
    }
    if (isMemoryAccess(code)) {
      const result = LOAD_RESULTS[code];
      if (result !== undefined) {
        pop();
        push(result);
      } else {
        popMany(2);
      }
      continue;
    }
    switch (code) {
      case Op.unreachable:
      case Op.br:
      case Op.brTable:
      case Op.return:
        current.polymorphic = true;
        break;
      case Op.nop:
      case Op.localTee:
      case Op.memoryGrow:
      case Op.dataDrop:
      case Op.elemDrop:
        break;
      case Op.block:
      case Op.loop:
        newFrame(op.blockType!, blockSignature(ctx, op.blockType!).params.length);
        break;
      case Op.if:
        pop();
        newFrame(op.blockType!, blockSignature(ctx, op.blockType!).params.length);
        break;
      case Op.else: {
        const ended = endFrame();
        if (ended === undefined) throw new WasmDecodeError("else outside of a block");
        newFrame(ended.blockType, 0);
        for (const p of blockSignature(ctx, ended.blockType).params) push(p);
        break;
      }
      case Op.end: {
        const ended = endFrame();
        if (ended !== undefined) for (const r of blockSignature(ctx, ended.blockType).results) push(r);
        break;
      }
      case Op.brIf:
      case Op.drop:
      case Op.localSet:
      case Op.globalSet:
        pop();
        break;
      case Op.call:
        call(functionType(ctx, op.index!));
        break;
      case Op.callIndirect:
        call(funcType(ctx, op.index!));
        break;
      case Op.select:
      case Op.selectTyped:
      case Op.tableSet:
        popMany(2);
        break;
      case Op.localGet:
        push(locals.typeOf(op.index!));
        break;
      case Op.globalGet: {
        const type = ctx.globalTypes[op.index!];
        if (type === undefined) throw new WasmDecodeError(`unknown global ${op.index}`);
        push(type);
        break;
      }
      case Op.tableGet: {
        const type = ctx.tableTypes[op.table!];
        if (type === undefined) throw new WasmDecodeError(`unknown table ${op.table}`);
        pop();
        push(type);
        break;
      }
      case Op.memorySize:
      case Op.tableSize:
      case Op.i32Const:
        push(ValType.i32);
        break;
      case Op.i64Const:
        push(ValType.i64);
        break;
      case Op.f32Const:
        push(ValType.f32);
        break;
      case Op.f64Const:
        push(ValType.f64);
        break;
      case Op.refNull:
        push(at(op.types!, 0));
        break;
      case Op.refIsNull:
        pop();
        push(ValType.i32);
        break;
      case Op.refFunc:
        push(ValType.funcref);
        break;
      case Op.memoryInit:
      case Op.memoryCopy:
      case Op.memoryFill:
      case Op.tableInit:
      case Op.tableCopy:
      case Op.tableFill:
        popMany(3);
        break;
      case Op.tableGrow:
        popMany(2);
        push(ValType.i32);
        break;
      default:
        throw new WasmDecodeError(`no stack effect for opcode 0x${code.toString(16)}`);
    }
  }
  return max;
}
