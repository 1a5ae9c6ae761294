import type { FunctionCallErrorJson } from "../runtime/actionError.js";

/**
 * What a view call (`query` `call_function`) answers: the method's return bytes and logs, or
 * its error both as nearcore's JSON (`FunctionCallError`, the `vm_error` of
 * CONTRACT_EXECUTION_ERROR) and as the text nearcore puts in the legacy `result.error`
 * string ("wasm execution failed with error: ..."), which near-api-js parses.
 */
export type CallFunctionOutcome =
  | { readonly ok: true; readonly result: Uint8Array; readonly logs: readonly string[] }
  | {
      readonly ok: false;
      readonly error: FunctionCallErrorJson;
      /** nearcore's legacy message, e.g. `wasm execution failed with error: FunctionCallError(...)`. */
      readonly message: string;
      readonly logs: readonly string[];
    };
