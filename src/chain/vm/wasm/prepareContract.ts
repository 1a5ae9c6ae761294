import { ByteReader } from "./byteReader.js";
import { type GasGlobals, type InstanceReuse, type InstrumentOptions, type InstrumentedModule, instrumentModule, type WriteTracking } from "./instrument.js";
import { readOperator } from "./operators.js";
import { PrepareFailure, type PrepareErrorJson } from "./prepareError.js";
import { WasmDecodeError } from "./wasmDecodeError.js";
import type { WasmLimits } from "./wasmLimits.js";
import {
  type DecodeObserver,
  type FunctionBody,
  type WasmModule,
  SectionId,
  decodeModule,
  encodeModule,
} from "./wasmModule.js";
import { ExternalKind, type FuncType } from "./wasmTypes.js";
import { at } from "../../must.js";

export type { PrepareErrorJson } from "./prepareError.js";
export { NEARCORE_WASM_LIMITS, type WasmLimits } from "./wasmLimits.js";
export { FINITE_WASM_IMPORT_MODULE, type DataSegment, type FiniteWasmImports, type GasGlobals, type InstanceReuse, type WriteTracking } from "./instrument.js";

/**
 * A contract ready to instantiate: validated, memory normalised, limits enforced, gas and stack
 * metered. Instantiate it with `env` (the host functions and `memory`) and `internal`
 * ({@link FiniteWasmImports}).
 */
export interface PreparedContract {
  readonly module: WebAssembly.Module;
  /** The prepared binary `module` was compiled from. */
  readonly code: Uint8Array;
  /** Exported functions by name with their signatures (nearcore calls only `() -> ()` methods). */
  readonly exportedFunctions: ReadonlyMap<string, FuncType>;
  /** The contract's own `env` function imports with their signatures, in import order. */
  readonly importedFunctions: readonly { readonly name: string; readonly type: FuncType }[];
  /** How far a call can have written guest memory (undefined: anywhere); see instrument.ts. */
  readonly writeTracking: WriteTracking | undefined;
  /** Gas and stack counters in wasm globals (undefined: host-call metering); see instrument.ts. */
  readonly gasGlobals: GasGlobals | undefined;
  /** How an instance can be put back to its initial state (undefined: instantiate per call). */
  readonly instanceReuse: InstanceReuse | undefined;
}

export type PrepareResult = { ok: true; contract: PreparedContract } | { ok: false; error: PrepareErrorJson };

/** Instrumentation variants (defaults: gas in wasm globals, write tracking). */
export type PrepareOptions = Pick<InstrumentOptions, "gasInGlobals" | "trackWrites" | "reuseInstances" | "bulkLoops" | "counterLocals">;

/** The module and name under which every prepared contract imports its linear memory. */
export const MEMORY_IMPORT = { module: "env", name: "memory" } as const;

/**
 * Prepares contract code the way nearcore's prepare_v3 does: validate, drop the module's own
 * memory and its export, import `env.memory` sized by the limits, reject imports nearcore
 * rejects and enforce the per-contract counts, stopping at the first violation in nearcore's
 * streaming order; then meter it (instrument.ts). Pure: the same bytes always give the same
 * result, so callers may cache by code hash. Never throws.
 */
export function prepareContract(
  code: Uint8Array,
  limits: WasmLimits,
  options: PrepareOptions = {},
): PrepareResult {
  try {
    const module = decodeModule(code, limitChecker(limits, code.length));
    validateSemantics(code);
    const prepared = normalise(module, limits);
    const instrumented = instrumentModule(prepared, limits, options);
    const bytes = encodeModule(instrumented.module);
    let compiled: WebAssembly.Module;
    try {
      compiled = new WebAssembly.Module(bytes);
    } catch {
      return { ok: false, error: "Serialization" };
    }
    return { ok: true, contract: describe(compiled, bytes, prepared, instrumented) };
  } catch (error) {
    if (error instanceof PrepareFailure) return { ok: false, error: error.error };
    // WasmDecodeError, or anything else absurd input provokes (a RangeError, say): a malformed
    // module, never a crash.
    return { ok: false, error: "Deserialization" };
  }
}

/** The limit checks nearcore makes while streaming the sections, in the same order. */
function limitChecker(limits: WasmLimits, codeLength: number): DecodeObserver {
  let functionsLeft = limits.maxFunctionsNumberPerContract;
  // From 87 the locals budget is also ⌊code length / min_contract_size_per_local⌋ (87.yaml; nearcore's
  // test `locals_limit_depends_on_contract_size`: 100 locals need 200 bytes of code, custom sections count).
  const perSize = limits.minContractSizePerLocal;
  let localsLeft = perSize === undefined ? limits.maxLocalsPerContract : Math.min(limits.maxLocalsPerContract, Math.floor(codeLength / perSize));
  return {
    beforeTypes(count: number): void {
      if (limits.maxTypesPerContract !== undefined && count > limits.maxTypesPerContract) {
        throw new PrepareFailure("TooManyTypes");
      }
    },
    afterSection(id: number, m: WasmModule): void {
      if (id === SectionId.import) {
        // The section is validated as a whole before nearcore transforms it import by import.
        for (const imp of m.imports) {
          if (imp.desc.kind === ExternalKind.func && imp.desc.typeIndex >= m.types.length) {
            throw new WasmDecodeError("import of an unknown type");
          }
        }
        for (const imp of m.imports) {
          if (imp.module !== "env") throw new PrepareFailure("Instantiate");
          switch (imp.desc.kind) {
            case ExternalKind.func:
              functionsLeft -= 1;
              if (functionsLeft < 0) throw new PrepareFailure("TooManyFunctions");
              break;
            case ExternalKind.table:
            case ExternalKind.global:
              throw new PrepareFailure("Instantiate");
            case ExternalKind.memory:
              throw new PrepareFailure("Memory");
          }
        }
      } else if (id === SectionId.table) {
        if (m.tables.length > limits.maxTablesPerContract) throw new PrepareFailure("TooManyTables");
        for (const table of m.tables) {
          if (table.limits.min > limits.maxElementsPerContractTable) throw new PrepareFailure("TooManyTableElements");
        }
      } else if (id === SectionId.memory) {
        // Multi-memory is disabled; bounds as wasmparser checks them (at most 65536 pages).
        if (m.memories.length > 1) throw new WasmDecodeError("multiple memories");
        for (const memory of m.memories) {
          if (memory.min > 65536 || (memory.max !== undefined && (memory.max > 65536 || memory.max < memory.min))) {
            throw new WasmDecodeError("invalid memory limits");
          }
        }
      }
    },
    beforeCodeEntries(count: number): void {
      functionsLeft -= count;
      if (functionsLeft < 0) throw new PrepareFailure("TooManyFunctions");
    },
    afterCodeEntry(_index: number, body: FunctionBody): void {
      if (body.size > limits.maxFunctionBodySize) throw new PrepareFailure("FunctionBodyTooLarge");
      for (const group of body.locals) {
        localsLeft -= group.count;
        if (localsLeft < 0) throw new PrepareFailure("TooManyLocals");
      }
      checkOperators(body.code);
    },
  };
}

/**
 * Decodes every operator so opcodes outside nearcore's feature set are refused. That set
 * (near-vm-runner features.rs, preparation V3) has sign-extension, multi-value, reference
 * types and bulk memory, but not saturating float-to-int (0xFC 0x00-0x07): wasmparser there
 * rejects those opcodes, so they are Deserialization errors here too.
 */
function checkOperators(code: Uint8Array): void {
  const reader = new ByteReader(code);
  while (!reader.eof) {
    const op = readOperator(reader, 0);
    if (op.code >= 0xfc00 && op.code <= 0xfc07)
      throw new WasmDecodeError("saturating float-to-int is not enabled for contracts");
  }
}

/**
 * Type-checking is left to the engine; the structural decode above has already refused every
 * feature nearcore disables, so what V8 accepts here wasmparser accepts too.
 */
function validateSemantics(code: Uint8Array): void {
  if (!WebAssembly.validate(code)) throw new WasmDecodeError("module failed validation");
}

function normalise(m: WasmModule, limits: WasmLimits): WasmModule {
  return {
    ...m,
    imports: [
      ...m.imports,
      {
        module: MEMORY_IMPORT.module,
        name: MEMORY_IMPORT.name,
        desc: { kind: ExternalKind.memory, limits: { min: limits.initialMemoryPages, max: limits.maxMemoryPages } },
      },
    ],
    memories: [],
    exports: m.exports.filter((e) => e.kind !== ExternalKind.memory),
    // nearcore's current config discards custom sections; they never affect execution.
    customSections: [],
  };
}

function describe(
  module: WebAssembly.Module,
  code: Uint8Array,
  m: WasmModule,
  { writeTracking, gasGlobals, instanceReuse }: Pick<InstrumentedModule, "writeTracking" | "gasGlobals" | "instanceReuse">,
): PreparedContract {
  const importedFunctions: { name: string; type: FuncType }[] = [];
  for (const imp of m.imports) {
    if (imp.desc.kind === ExternalKind.func)
      importedFunctions.push({ name: imp.name, type: at(m.types, imp.desc.typeIndex) });
  }
  const exportedFunctions = new Map<string, FuncType>();
  for (const exp of m.exports) {
    if (exp.kind !== ExternalKind.func) continue;
    const typeIndex =
      exp.index < importedFunctions.length
        ? functionImportTypeIndex(m, exp.index)
        : m.functions[exp.index - importedFunctions.length];
    const type = typeIndex === undefined ? undefined : m.types[typeIndex];
    if (type !== undefined) exportedFunctions.set(exp.name, type);
  }
  return { module, code, exportedFunctions, importedFunctions, writeTracking, gasGlobals, instanceReuse };
}

function functionImportTypeIndex(m: WasmModule, functionIndex: number): number | undefined {
  let seen = 0;
  for (const imp of m.imports) {
    if (imp.desc.kind !== ExternalKind.func) continue;
    if (seen === functionIndex) return imp.desc.typeIndex;
    seen++;
  }
  return undefined;
}
