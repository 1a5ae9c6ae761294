/**
 * The JS WebAssembly API as Node 20 provides it. TypeScript ships these declarations only in
 * lib.dom, which this project does not load, and @types/node 20 omits them; this is the subset
 * the VM uses (module, instance, memory, global, table and the error classes).
 */
declare namespace WebAssembly {
  type ImportValue = ExportValue | number | bigint;
  type ExportValue = ((...args: any[]) => any) | Global | Memory | Table;
  type Imports = Record<string, ModuleImports>;
  type ModuleImports = Record<string, ImportValue>;
  type Exports = Record<string, ExportValue>;
  type ImportExportKind = "function" | "global" | "memory" | "table" | "tag";
  type ValueType = "anyfunc" | "externref" | "f32" | "f64" | "i32" | "i64" | "v128";
  type TableKind = "anyfunc" | "externref";

  interface ModuleExportDescriptor {
    kind: ImportExportKind;
    name: string;
  }
  interface ModuleImportDescriptor {
    kind: ImportExportKind;
    module: string;
    name: string;
  }

  class Module {
    constructor(bytes: BufferSource);
    static customSections(moduleObject: Module, sectionName: string): ArrayBuffer[];
    static exports(moduleObject: Module): ModuleExportDescriptor[];
    static imports(moduleObject: Module): ModuleImportDescriptor[];
  }

  class Instance {
    constructor(module: Module, importObject?: Imports);
    readonly exports: Exports;
  }

  interface MemoryDescriptor {
    initial: number;
    maximum?: number;
    shared?: boolean;
  }
  class Memory {
    constructor(descriptor: MemoryDescriptor);
    readonly buffer: ArrayBuffer;
    grow(delta: number): number;
  }

  interface GlobalDescriptor {
    mutable?: boolean;
    value: ValueType;
  }
  class Global {
    constructor(descriptor: GlobalDescriptor, v?: any);
    value: any;
    valueOf(): any;
  }

  interface TableDescriptor {
    element: TableKind;
    initial: number;
    maximum?: number;
  }
  class Table {
    constructor(descriptor: TableDescriptor, value?: any);
    readonly length: number;
    get(index: number): any;
    grow(delta: number, value?: any): number;
    set(index: number, value?: any): void;
  }

  class CompileError extends Error {}
  class LinkError extends Error {}
  class RuntimeError extends Error {}

  function validate(bytes: BufferSource): boolean;
  function compile(bytes: BufferSource): Promise<Module>;
  function instantiate(bytes: BufferSource, importObject?: Imports): Promise<{ module: Module; instance: Instance }>;
  function instantiate(moduleObject: Module, importObject?: Imports): Promise<Instance>;
}

type BufferSource = ArrayBufferView | ArrayBuffer;
