import wabtInit from "wabt";

const wabt = await wabtInit();

/** Compiles WAT text to a wasm binary (test fixtures). */
export function wat(source: string): Uint8Array {
  const module = wabt.parseWat("fixture.wat", source, { bulk_memory: true, sign_extension: true, mutable_globals: true });
  try {
    return new Uint8Array(module.toBinary({}).buffer);
  } finally {
    module.destroy();
  }
}

/** A module with its own exported memory (prepareContract swaps it for `env.memory`) plus the given `env` imports and body (functions, data, exports). */
export function contract(imports: string, body: string): Uint8Array {
  return wat(`(module
  ${imports}
  (memory (export "memory") 1)
  ${body}
)`);
}
