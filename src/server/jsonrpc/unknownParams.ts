import { rpcMethodTable, type RpcMethodName } from "../../../generated/rpc/methods.js";
import { ParseError } from "../errors.js";
import { isJsonObject } from "@shardkit/primitives/isJsonObject";

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
 * `unevaluatedProperties: false`. At the top level they are dropped or refused with every
 * other undeclared field; inside nested objects, which the params schemas keep closed, they
 * are refused here.
 */
export function applyUnknownParamsRule(method: RpcMethodName, params: unknown): unknown {
  if (!isJsonObject(params)) return params;
  const info = rpcMethodTable[method];
  const known = declaredFields(info, params);
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(params)) {
    if (known.has(key)) {
      const value = params[key];
      refuseBuiltinNames(value, `params/${key}`);
      kept[key] = value;
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
