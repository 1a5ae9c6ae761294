import type { RpcFunctionCallError } from "../../../../generated/rpc/types.js";
import type { FunctionCallErrorJson } from "../../../chain/runtime/actionError.js";

const PANIC_PREFIX = "Smart contract panicked: ";

/**
 * nearcore's `RpcFunctionCallError` from a FunctionCallError: the same, except that an
 * `ExecutionError` whose message is `Smart contract panicked: <json>` with parsable JSON
 * carries the parsed value; any other message stays the whole string.
 */
export function rpcFunctionCallError(error: FunctionCallErrorJson): RpcFunctionCallError {
  if (!("ExecutionError" in error)) return error;
  const message = error.ExecutionError;
  if (message.startsWith(PANIC_PREFIX)) {
    try {
      // JSON.parse yields a JSON value: one of the shapes ExecutionError may hold.
      const parsed: Record<string, unknown> | unknown[] | string | number | boolean | null = JSON.parse(message.slice(PANIC_PREFIX.length));
      return { ExecutionError: parsed };
    } catch {
      // not JSON: keep the message
    }
  }
  return { ExecutionError: message };
}
