import { ShardkitError } from "@shardkit/primitives/ShardkitError";

/** Thrown by the wasm binary reader on malformed or unsupported input; preparation maps it to a PrepareError. */
export class WasmDecodeError extends ShardkitError<"INVALID_WASM"> {
  override readonly name = "WasmDecodeError";
  constructor(message: string) {
    super("INVALID_WASM", message);
  }
}
