import { InvariantError } from "../must.js";

/*
 * Exports of an instance of a contract shardkit prepared itself: the method called, and the
 * gas, start, reset and store-mark exports the instrumentation adds. Preparation checks that
 * they exist with their kinds, so a mismatch here is a bug in shardkit, not in the contract.
 */

export function exportedFunction(instance: WebAssembly.Instance, name: string): () => unknown {
  const value = instance.exports[name];
  if (typeof value !== "function") throw new InvariantError(`export ${JSON.stringify(name)} of a prepared contract is not a function`);
  return value;
}

export function exportedGlobal(instance: WebAssembly.Instance, name: string): WebAssembly.Global {
  const value = instance.exports[name];
  if (!(value instanceof WebAssembly.Global)) throw new InvariantError(`export ${JSON.stringify(name)} of a prepared contract is not a global`);
  return value;
}

/** The value of an i32 global (a number). */
export function i32Value(global: WebAssembly.Global): number {
  const value: unknown = global.value;
  if (typeof value !== "number") throw new InvariantError("an i32 global of a prepared contract holds no number");
  return value;
}

/** The value of an i64 global (a bigint). */
export function i64Value(global: WebAssembly.Global): bigint {
  const value: unknown = global.value;
  if (typeof value !== "bigint") throw new InvariantError("an i64 global of a prepared contract holds no bigint");
  return value;
}
