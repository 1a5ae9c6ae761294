import { WasmDecodeError } from "./wasmDecodeError.js";
import type { LocalGroup, WasmModule } from "./wasmModule.js";
import { ExternalKind, type FuncType, type ValType } from "./wasmTypes.js";
import type { BlockType } from "./operators.js";
import { at } from "../../must.js";

/** What the per-function analyses need to know about the module: types of functions, globals and tables. */
export interface ModuleContext {
  readonly types: readonly FuncType[];
  /** Type index of every function, imported ones first (the module's function index space). */
  readonly functionTypes: readonly number[];
  readonly globalTypes: readonly ValType[];
  readonly tableTypes: readonly ValType[];
}

export function moduleContext(m: WasmModule): ModuleContext {
  const functionTypes: number[] = [];
  const globalTypes: ValType[] = [];
  const tableTypes: ValType[] = [];
  for (const imp of m.imports) {
    if (imp.desc.kind === ExternalKind.func) functionTypes.push(imp.desc.typeIndex);
    else if (imp.desc.kind === ExternalKind.global) globalTypes.push(imp.desc.type.valType);
    else if (imp.desc.kind === ExternalKind.table) tableTypes.push(imp.desc.type.elementType);
  }
  functionTypes.push(...m.functions);
  for (const g of m.globals) globalTypes.push(g.type.valType);
  for (const t of m.tables) tableTypes.push(t.elementType);
  return { types: m.types, functionTypes, globalTypes, tableTypes };
}

export function funcType(ctx: ModuleContext, typeIndex: number): FuncType {
  const type = ctx.types[typeIndex];
  if (type === undefined) throw new WasmDecodeError(`unknown type ${typeIndex}`);
  return type;
}

export function functionType(ctx: ModuleContext, functionIndex: number): FuncType {
  const typeIndex = ctx.functionTypes[functionIndex];
  if (typeIndex === undefined) throw new WasmDecodeError(`unknown function ${functionIndex}`);
  return funcType(ctx, typeIndex);
}

export function blockSignature(ctx: ModuleContext, blockType: BlockType): FuncType {
  switch (blockType.kind) {
    case "empty":
      return { params: [], results: [] };
    case "value":
      return { params: [], results: [blockType.type] };
    case "func":
      return funcType(ctx, blockType.typeIndex);
  }
}

/**
 * A function's locals (parameters first, then declared groups) as run-length prefix sums, so
 * that a million declared locals cost one entry, and lookup is a binary search.
 */
export class LocalTypes {
  private readonly ends: number[] = [];
  private readonly types: ValType[] = [];

  constructor(params: readonly ValType[], groups: readonly LocalGroup[]) {
    let end = 0;
    for (const p of params) this.add(++end, p);
    for (const g of groups) {
      if (g.count === 0) continue;
      end += g.count;
      this.add(end, g.type);
    }
  }

  private add(end: number, type: ValType): void {
    this.ends.push(end);
    this.types.push(type);
  }

  /** (count, type) runs in declaration order. */
  *runs(): Generator<{ count: number; type: ValType }> {
    let start = 0;
    for (let i = 0; i < this.ends.length; i++) {
      yield { count: at(this.ends, i) - start, type: at(this.types, i) };
      start = at(this.ends, i);
    }
  }

  typeOf(index: number): ValType {
    let lo = 0;
    let hi = this.ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (at(this.ends, mid) > index) hi = mid;
      else lo = mid + 1;
    }
    const type = this.types[lo];
    if (type === undefined) throw new WasmDecodeError(`unknown local ${index}`);
    return type;
  }
}
