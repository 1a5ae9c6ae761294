/** Thrown by the wasm binary reader on malformed or unsupported input; preparation maps it to a PrepareError. */
export class WasmDecodeError extends Error {
  override readonly name = "WasmDecodeError";
}
