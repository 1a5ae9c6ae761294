import wabtInit from "wabt";

type Wabt = Awaited<ReturnType<typeof wabtInit>>;
let wabt: Promise<Wabt> | undefined;

/** Feature switches for wabt's parser; all features nearcore enables are on by default here. */
export interface WatFeatures {
  readonly simd?: boolean;
  readonly threads?: boolean;
  readonly multi_memory?: boolean;
  readonly tail_call?: boolean;
  readonly exceptions?: boolean;
}

/**
 * Compiles WAT text to a wasm binary with wabt (the tests' only way to write modules by hand).
 * `validate: false` skips wabt's validation, to build modules that are well-formed but invalid
 * (or use features nearcore refuses), which preparation must reject itself.
 */
export async function wat(source: string, features: WatFeatures = {}, debugNames = false, validate = true): Promise<Uint8Array> {
  wabt ??= wabtInit();
  const w = await wabt;
  const parsed = w.parseWat("fixture.wat", source, {
    bulk_memory: true,
    reference_types: true,
    multi_value: true,
    mutable_globals: true,
    sat_float_to_int: true,
    sign_extension: true,
    ...features,
  });
  try {
    parsed.resolveNames();
    if (validate) parsed.validate();
    return parsed.toBinary({ write_debug_names: debugNames }).buffer;
  } finally {
    parsed.destroy();
  }
}
