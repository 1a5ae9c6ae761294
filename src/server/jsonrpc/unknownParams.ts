import { rpcMethodTable, type RpcMethodName } from "../../../generated/rpc/methods.js";
import { ParseError } from "../errors.js";
import { isJsonObject } from "@shardkit/primitives/isJsonObject";
import type { ErrorObject } from "ajv";

/**
 * Applies a method's `x-unknown-params` rule to by-name params before validation.
 *
 * nearcore's request types are plain serde structs (most flatten a block reference or a
 * tagged request enum), none `deny_unknown_fields`: a field they do not declare is ignored,
 * including a field of another variant of a tagged union. Methods marked `ignore` get the
 * same: only the fields the method (or the variant its discriminator picks) declares are
 * kept. Methods marked `deny` refuse an undeclared field.
 *
 * Either way a name of a JavaScript object built-in (`constructor`, `__proto__`, `toString`,
 * ...) is never taken as a field: the generated validators track the fields they have seen in
 * plain objects, where such names always look "seen", so they would slip through
 * `unevaluatedProperties: false`. They are dropped (`ignore`) or refused (`deny`) with every
 * other undeclared field, at the top level here and inside nested objects too (the other
 * nested fields of an `ignore` method are dropped by withoutNestedUnknownField).
 */
export function applyUnknownParamsRule(method: RpcMethodName, params: unknown): unknown {
  if (!isJsonObject(params)) return params;
  const info = rpcMethodTable[method];
  const known = declaredFields(info, params);
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(params)) {
    if (known.has(key)) {
      const value = params[key];
      kept[key] = info.unknownParams === "ignore" ? withoutBuiltinNames(value) : (refuseBuiltinNames(value, `params/${key}`), value);
    } else if (info.unknownParams === "deny") {
      throw new ParseError(`Failed parsing args: unknown field \`${key}\` in params`);
    }
  }
  return kept;
}

function declaredFields(
  info: { discriminator: string | null; knownParams: readonly string[]; knownParamsByVariant: { readonly [tag: string]: readonly string[] } },
  params: Record<string, unknown>,
): ReadonlySet<string> {
  if (info.discriminator !== null && Object.hasOwn(params, info.discriminator)) {
    const tag = params[info.discriminator];
    if (typeof tag === "string" && Object.hasOwn(info.knownParamsByVariant, tag)) return new Set(info.knownParamsByVariant[tag]);
  }
  return new Set(info.knownParams);
}

/** Refuses an object key anywhere below `value` that names a member of Object.prototype. */
function refuseBuiltinNames(value: unknown, path: string): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => refuseBuiltinNames(item, `${path}/${i}`));
    return;
  }
  if (!isJsonObject(value)) return;
  for (const key of Object.keys(value)) {
    if (key in Object.prototype) throw new ParseError(`Failed parsing args: unknown field \`${key}\` in ${path}`);
    refuseBuiltinNames(value[key], `${path}/${key}`);
  }
}

/** `value` with every object key that names a member of Object.prototype left out, at any depth; `value` itself when it has none (every request passes here). */
function withoutBuiltinNames(value: unknown): unknown {
  return hasBuiltinName(value) ? copyWithoutBuiltinNames(value) : value;
}

function hasBuiltinName(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasBuiltinName);
  if (!isJsonObject(value)) return false;
  return Object.keys(value).some((key) => key in Object.prototype || hasBuiltinName(value[key]));
}

function copyWithoutBuiltinNames(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyWithoutBuiltinNames);
  if (!isJsonObject(value)) return value;
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(value)) if (!(key in Object.prototype)) kept[key] = copyWithoutBuiltinNames(value[key]);
  return kept;
}

/**
 * For a method that ignores unknown fields (nearcore's request types and the types nested in
 * them are not `deny_unknown_fields`): `params` without the nested field its validator's only
 * error names as undeclared, or undefined when the error is anything else. Only a lone error
 * outside any union is taken, so a field that another branch of a `oneOf` declares is never
 * dropped; the caller validates again and calls this again for the next such field.
 */
export function withoutNestedUnknownField(method: RpcMethodName, params: unknown, errors: readonly ErrorObject[] | null | undefined): unknown {
  if (rpcMethodTable[method].unknownParams !== "ignore" || errors?.length !== 1) return undefined;
  const [error] = errors;
  if (error === undefined || /oneOf|anyOf/.test(error.schemaPath)) return undefined;
  const field = error.keyword === "additionalProperties" ? error.params.additionalProperty : error.keyword === "unevaluatedProperties" ? error.params.unevaluatedProperty : undefined;
  if (typeof field !== "string" || error.instancePath === "") return undefined;
  const path = error.instancePath.split("/").slice(1).map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"));
  return withoutField(params, path, field);
}

/** A copy of `value` without `field` in the object at `path` (copies only along the path). */
function withoutField(value: unknown, path: readonly string[], field: string): unknown {
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const index = Number(head);
    return value.map((item, i) => (i === index ? withoutField(item, rest, field) : item));
  }
  if (!isJsonObject(value)) return value;
  if (head === undefined) {
    const { [field]: _dropped, ...kept } = value;
    return kept;
  }
  return { ...value, [head]: withoutField(value[head], rest, field) };
}
