import type { BlockReference } from "../../../../generated/rpc/types.js";
import { isJsonObject } from "@shardkit/primitives/isJsonObject";

/**
 * Rust's `{:?}` (Debug) notation of the values nearcore prints into the `data` text of the
 * typed view errors. nearcore formats its own Rust values; these functions rebuild the text
 * from the JSON form of the same values.
 */

const finalityVariant = { optimistic: "None", "near-final": "DoomSlug", final: "Final" } as const;
const checkpointVariant = { genesis: "Genesis", earliest_available: "EarliestAvailable" } as const;

/** `BlockId(Height(7))`, `BlockId(Hash(<base58>))`, `Finality(Final)`, `SyncCheckpoint(Genesis)`. */
export function blockReferenceDebug(reference: BlockReference): string {
  if ("finality" in reference) return `Finality(${finalityVariant[reference.finality]})`;
  if ("sync_checkpoint" in reference) return `SyncCheckpoint(${checkpointVariant[reference.sync_checkpoint]})`;
  const id = reference.block_id;
  return typeof id === "number" ? `BlockId(Height(${id}))` : `BlockId(Hash(${id}))`;
}

/**
 * An externally tagged serde enum value in Debug notation: a unit variant is its name, a
 * newtype variant `Name(inner)`, a struct variant `Name { field: value, .. }`. A one-key object
 * whose key is capitalised is read as an enum, any other object as a struct; `account_id`
 * fields print as `AccountId("..")`, as near-account-id's Debug does. `ExecutionError` holds a
 * `serde_json::Value` in nearcore's RpcFunctionCallError and prints the way serde_json does.
 */
export function enumDebug(value: unknown): string {
  if (typeof value === "string") return value;
  if (isJsonObject(value)) {
    const [name, ...others] = Object.keys(value);
    if (name !== undefined && others.length === 0 && /^[A-Z_]/.test(name)) {
      const inner = value[name];
      if (name === "ExecutionError") return `ExecutionError(${jsonValueDebug(inner)})`;
      if (isJsonObject(inner) && !isEnumObject(inner)) return `${name} ${structBody(inner)}`;
      return `${name}(${enumDebug(inner)})`;
    }
    return structBody(value);
  }
  return fieldDebug("", value);
}


function isEnumObject(value: Record<string, unknown>): boolean {
  const [name, ...others] = Object.keys(value);
  return name !== undefined && others.length === 0 && /^[A-Z_]/.test(name);
}

function structBody(fields: Record<string, unknown>): string {
  const parts = Object.entries(fields).map(([name, v]) => `${name}: ${fieldDebug(name, v)}`);
  return parts.length === 0 ? "{}" : `{ ${parts.join(", ")} }`;
}

function fieldDebug(name: string, value: unknown): string {
  if (typeof value === "string") {
    return name === "account_id" || name.endsWith("_account_id") ? `AccountId(${JSON.stringify(value)})` : JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => fieldDebug("", v)).join(", ")}]`;
  if (isJsonObject(value)) return enumDebug(value);
  if (value === null) return "None";
  return String(value);
}

/** serde_json's Debug of a `Value`: `String("..")`, `Number(1)`, `Object {"k": ..}`, ... */
export function jsonValueDebug(value: unknown): string {
  if (value === null) return "Null";
  if (typeof value === "string") return `String(${JSON.stringify(value)})`;
  if (typeof value === "number") return `Number(${value})`;
  if (typeof value === "boolean") return `Bool(${value})`;
  if (Array.isArray(value)) return `Array [${value.map(jsonValueDebug).join(", ")}]`;
  if (isJsonObject(value)) {
    return `Object {${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${jsonValueDebug(v)}`).join(", ")}}`;
  }
  return String(value);
}
