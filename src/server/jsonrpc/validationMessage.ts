import type { ErrorObject } from "ajv";
import { accountIdParseError, accountIdSerdeMessage } from "./accountIdParseError.js";

/**
 * The error that says most about what the caller sent: the deepest one (a `oneOf` of block
 * references reports every branch; the branch whose field is present is the one that matters),
 * preferring a concrete complaint over the summary keywords that wrap it, and, for one value, the
 * branch of its own JSON type over a branch that wanted another type (`block_id: "not-a-hash"`
 * is a bad hash, not a bad height).
 */
function mostSpecific(errors: readonly ErrorObject[]): ErrorObject | undefined {
  let best: ErrorObject | undefined;
  const rank = (e: ErrorObject) => e.instancePath.split("/").length * 4 + (summaryKeywords.has(e.keyword) ? 0 : 2) + (e.keyword === "type" ? 0 : 1);
  for (const error of errors) if (best === undefined || rank(error) > rank(best)) best = error;
  return best;
}

/**
 * A `oneOf` whose every branch only misses its own field (no block reference at all) is best
 * told as the list of fields one of which is needed.
 */
function missingAlternatives(errors: readonly ErrorObject[]): string | undefined {
  const oneOf = errors.find((e) => e.keyword === "oneOf");
  if (oneOf === undefined) return undefined;
  const branches = errors.filter((e) => e !== oneOf && e.schemaPath.startsWith(oneOf.schemaPath.slice(0, -"oneOf".length)));
  if (branches.length < 2 || !branches.every((e) => e.keyword === "required" && e.instancePath === oneOf.instancePath)) return undefined;
  const names = branches.map((e) => `\`${String(paramsOf(e).missingProperty)}\``);
  return `missing field: one of ${names.join(", ")} in params${oneOf.instancePath}`;
}

/** An Ajv error's keyword parameters, each read as `unknown` (Ajv types them `any`). */
function paramsOf(error: ErrorObject): Readonly<Record<string, unknown>> {
  return error.params;
}

const summaryKeywords = new Set(["oneOf", "anyOf", "if", "required"]);

/**
 * One short, schema-free sentence for the first validation error, in the spirit of serde's
 * messages that nearcore returns ("unknown field `x`", "missing field `y`").
 */
export function validationMessage(errors: readonly ErrorObject[] | null | undefined): string {
  const alternatives = missingAlternatives(errors ?? []);
  if (alternatives !== undefined) return alternatives;
  const error = mostSpecific(errors ?? []);
  if (!error) return "invalid params";
  const accountId = invalidAccountId(error);
  if (accountId !== undefined) return accountId;
  const serde = serdeNumberMessage(errors ?? []);
  if (serde !== undefined) return serde;
  const where = error.instancePath === "" ? "params" : `params${error.instancePath}`;
  const p = paramsOf(error);
  switch (error.keyword) {
    case "additionalProperties":
      return `unknown field \`${String(p.additionalProperty)}\` in ${where}`;
    case "unevaluatedProperties":
      return `unknown field \`${String(p.unevaluatedProperty)}\` in ${where}`;
    case "required":
      return `missing field \`${String(p.missingProperty)}\` in ${where}`;
    case "enum":
      return Array.isArray(p.allowedValues)
        ? `${where} must be one of ${p.allowedValues.map((v: unknown) => JSON.stringify(v)).join(", ")}`
        : `${where} ${error.message ?? "is invalid"}`;
    case "const":
      return `${where} must be ${JSON.stringify(p.allowedValue)}`;
    case "pattern": {
      const name = /\/\$defs\/(\w+)\//.exec(error.schemaPath)?.[1];
      const what = name === undefined ? undefined : (patternNames[name] ?? name);
      return what === undefined ? `${where} ${error.message ?? "is invalid"}` : `${where} must be ${what}, got ${JSON.stringify(error.data)}`;
    }
    case "not": {
      // The spec describes each prohibition; the generator keeps that text for us.
      const description: unknown = error.parentSchema?.description;
      return typeof description === "string" ? description : `${where} ${error.message ?? "is invalid"}`;
    }
    case "discriminator":
      return p.tagValue === undefined
        ? `missing field \`${String(p.tag)}\` in ${where}`
        : `unknown variant ${JSON.stringify(p.tagValue)} for \`${String(p.tag)}\``;
    default:
      return `${where} ${error.message ?? "is invalid"}`;
  }
}

/**
 * nearcore's `AccountId` validates itself while params are deserialised, so a bad id is
 * reported in serde's words with the id and the rule it broke, never as a schema pattern.
 */
function invalidAccountId(error: ErrorObject): string | undefined {
  if (!error.schemaPath.includes("/$defs/AccountId/") || typeof error.data !== "string") return undefined;
  const reason = accountIdParseError(error.data);
  return reason === undefined ? undefined : accountIdSerdeMessage(error.data, reason);
}

/** What a string of a patterned component is, in words (the pattern itself tells a caller little). */
const patternNames: Record<string, string> = {
  CryptoHash: "a base58 hash (32 bytes)",
  PublicKey: "a public key (`ed25519:<base58>`, `secp256k1:<base58>` or `ml-dsa-65:<base58>`)",
};

/** Components whose failures nearcore words as serde does for its Rust type, by what serde expects. */
const serdeExpectations: Record<string, string> = { ViewStateLimit: "a nonzero u32", ShardId: "u64" };

/** serde's `invalid value` / `invalid type` message for a number field with a Rust integer type. */
function serdeNumberMessage(errors: readonly ErrorObject[]): string | undefined {
  for (const error of errors) {
    const name = /\/\$defs\/(\w+)\//.exec(error.schemaPath)?.[1];
    const expected = name === undefined ? undefined : serdeExpectations[name];
    if (expected === undefined) continue;
    const value: unknown = error.data;
    // serde_json reads a number beyond u64 as a float, and prints it as Rust does: shortest
    // digits, no exponent, `.0` (`1e30` → `1000000000000000000000000000000.0`).
    if (typeof value === "number" && Number.isInteger(value) && Math.abs(value) >= 2 ** 64) {
      return `invalid type: floating point \`${value.toLocaleString("en-US", { useGrouping: false })}.0\`, expected ${expected}`;
    }
    if (typeof value === "number" && Number.isInteger(value)) return `invalid value: integer \`${value}\`, expected ${expected}`;
    return `invalid type: ${serdeUnexpected(value)}, expected ${expected}`;
  }
  return undefined;
}

/** How serde names a JSON value of the wrong type. */
function serdeUnexpected(value: unknown): string {
  if (typeof value === "number") return `floating point \`${value}\``;
  if (typeof value === "string") return `string ${JSON.stringify(value)}`;
  if (typeof value === "boolean") return `boolean \`${value}\``;
  if (Array.isArray(value)) return "sequence";
  if (value === null) return "null";
  return "map";
}
