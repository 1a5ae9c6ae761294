// Per-method facts every emitter needs: names, the exact params schema, the result schema,
// the request variants of a discriminated params union, and the error causes.

import type {
  ContentDescriptor,
  MethodObject,
  OpenRpcDocument,
  Schema,
  SchemaObject,
} from "./openrpc-model.js";
import { camelCase, pascalCase } from "./names.js";
import { deref, isSchemaObject } from "./schema.js";

export interface ParamsVariant {
  /** Value of the discriminator property, e.g. `view_state`. */
  tag: string;
  /** Generated type name, e.g. `ViewStateParams`. */
  typeName: string;
  /** The branch schema as written in the union (usually a `$ref`). */
  branch: Schema;
}

export interface MethodModel {
  name: string;
  pascal: string;
  camel: string;
  summary: string;
  description: string;
  method: MethodObject;
  /** True when the params come from `x-params-schema` rather than the content descriptors. */
  usesParamsSchema: boolean;
  /** The exact by-name params schema the validator and the TS type use. */
  paramsSchema: Schema;
  resultSchema: Schema;
  /** No params at all: callers send `{}` (or null / [] in legacy form). */
  noParams: boolean;
  /** Every param is optional, so the client may omit the params argument. */
  paramsOptional: boolean;
  paramNames: string[];
  requiredParamNames: string[];
  errorCauses: string[];
  /** Discriminated request variants of the params union (empty when there is none). */
  discriminator: string | undefined;
  commonParams: Schema[];
  variants: ParamsVariant[];
  /** Result type names per variant tag (from `x-result-by-variant`); empty when the method has none. */
  resultByVariant: { tag: string; typeNames: string[] }[];
  /** `x-unknown-params`: drop undeclared params fields (nearcore's serde default) or refuse them; `deny` when unset. */
  unknownParams: "ignore" | "deny";
  /** Every params field name the params schema declares anywhere (all variants), sorted. */
  knownParams: string[];
  /** Per discriminator tag, the fields that variant declares (with the common ones), sorted; empty without a union. */
  knownParamsByVariant: { tag: string; names: string[] }[];
}

/**
 * Every property name a schema declares for the object it validates: its `properties` and those
 * of its `$ref`, `allOf`, `anyOf`, `oneOf`, `if`/`then`/`else` parts (not of nested values).
 */
export function declaredPropertyNames(doc: OpenRpcDocument, schema: Schema, seen = new Set<Schema>()): Set<string> {
  const names = new Set<string>();
  if (!isSchemaObject(schema) || seen.has(schema)) return names;
  seen.add(schema);
  const add = (part: unknown) => {
    for (const n of declaredPropertyNames(doc, part as Schema, seen)) names.add(n);
  };
  if (isSchemaObject(schema.properties)) for (const name of Object.keys(schema.properties)) names.add(name);
  if (typeof schema.$ref === "string") {
    const target = deref(doc, { $ref: schema.$ref });
    if (target !== undefined) add(target);
  }
  for (const keyword of ["allOf", "anyOf", "oneOf"] as const) {
    const parts = schema[keyword];
    if (Array.isArray(parts)) parts.forEach(add);
  }
  for (const keyword of ["if", "then", "else"] as const) if (schema[keyword] !== undefined) add(schema[keyword]);
  return names;
}

/** A closed by-name params object built from the flat content descriptors. */
export function descriptorParamsSchema(params: ContentDescriptor[]): SchemaObject {
  const required = params.filter((p) => p.required === true).map((p) => p.name);
  return {
    type: "object",
    ...(params.length > 0 ? { properties: Object.fromEntries(params.map((p) => [p.name, p.schema])) } : {}),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

interface UnionParts {
  discriminator: string;
  common: Schema[];
  branches: Schema[];
}

function findDiscriminatedUnion(doc: OpenRpcDocument, schema: Schema): UnionParts | undefined {
  const top = deref(doc, schema);
  if (!isSchemaObject(top)) return undefined;
  const tagged = (s: Schema): boolean =>
    isSchemaObject(s) && isSchemaObject(s.discriminator) && Array.isArray(s.oneOf);
  if (tagged(top)) {
    return {
      discriminator: String((top.discriminator as SchemaObject).propertyName),
      common: [],
      branches: top.oneOf as Schema[],
    };
  }
  const allOf = Array.isArray(top.allOf) ? (top.allOf as Schema[]) : [];
  const index = allOf.findIndex((part) => tagged(deref(doc, part)));
  if (index < 0) return undefined;
  const union = deref(doc, allOf[index]!) as SchemaObject;
  return {
    discriminator: String((union.discriminator as SchemaObject).propertyName),
    common: allOf.filter((_, i) => i !== index),
    branches: union.oneOf as Schema[],
  };
}

function variantTypeName(branch: Schema, tag: string): string {
  if (isSchemaObject(branch) && typeof branch.$ref === "string") {
    const name = branch.$ref.split("/").pop()!;
    if (name.endsWith("Request")) return `${name.slice(0, -"Request".length)}Params`;
  }
  return `${pascalCase(tag)}Params`;
}

export function methodModel(doc: OpenRpcDocument, method: MethodObject): MethodModel {
  const paramsSchemaExt = method["x-params-schema"];
  const paramsSchema = paramsSchemaExt ?? descriptorParamsSchema(method.params);
  const union = paramsSchemaExt !== undefined ? findDiscriminatedUnion(doc, paramsSchemaExt) : undefined;
  const variants = (union?.branches ?? []).map((branch) => {
    const resolved = deref(doc, branch);
    const tagSchema = isSchemaObject(resolved) ? resolved.properties?.[union!.discriminator] : undefined;
    const tag =
      isSchemaObject(tagSchema) && typeof tagSchema.const === "string" ? tagSchema.const : undefined;
    if (tag === undefined) {
      throw new Error(`${method.name}: every ${union!.discriminator} branch needs a string const tag`);
    }
    return { tag, typeName: variantTypeName(branch, tag), branch };
  });
  const resultByVariant = resultVariants(doc, method, variants);
  const requiredParamNames = method.params.filter((p) => p.required === true).map((p) => p.name);
  const knownParams = [...declaredPropertyNames(doc, paramsSchema)].sort();
  const common = new Set((union?.common ?? []).flatMap((part) => [...declaredPropertyNames(doc, part)]));
  const knownParamsByVariant = variants.map((v) => ({
    tag: v.tag,
    names: [...new Set([...common, ...declaredPropertyNames(doc, v.branch)])].sort(),
  }));
  return {
    name: method.name,
    pascal: pascalCase(method.name),
    camel: camelCase(method.name),
    summary: method.summary ?? "",
    description: method.description ?? "",
    method,
    usesParamsSchema: paramsSchemaExt !== undefined,
    paramsSchema,
    resultSchema: method.result?.schema ?? true,
    noParams: method.params.length === 0 && paramsSchemaExt === undefined,
    paramsOptional: paramsSchemaExt === undefined && requiredParamNames.length === 0,
    paramNames: method.params.map((p) => p.name),
    requiredParamNames,
    errorCauses: method["x-error-causes"] ?? [],
    discriminator: union?.discriminator,
    commonParams: union?.common ?? [],
    variants,
    resultByVariant,
    unknownParams: method["x-unknown-params"] ?? "deny",
    knownParams,
    knownParamsByVariant,
  };
}

/**
 * `x-result-by-variant`, checked: one entry per params variant, each naming members of the
 * result `oneOf`, so a typed client's result can follow the request.
 */
function resultVariants(
  doc: OpenRpcDocument,
  method: MethodObject,
  variants: ParamsVariant[],
): { tag: string; typeNames: string[] }[] {
  const map = method["x-result-by-variant"];
  if (map === undefined) return [];
  const where = `${method.name}: x-result-by-variant`;
  const result = method.result?.schema === undefined ? undefined : deref(doc, method.result.schema);
  const members = new Set(
    isSchemaObject(result) && Array.isArray(result.oneOf)
      ? (result.oneOf as Schema[]).flatMap((m) => (isSchemaObject(m) && typeof m.$ref === "string" ? [m.$ref] : []))
      : [],
  );
  const tags = variants.map((v) => v.tag);
  const extra = Object.keys(map).filter((tag) => !tags.includes(tag));
  if (extra.length > 0) throw new Error(`${where} names ${extra.join(", ")}, which are not params variants`);
  return tags.map((tag) => {
    const refs = map[tag];
    if (refs === undefined || refs.length === 0) throw new Error(`${where} has no entry for ${tag}`);
    for (const ref of refs) {
      if (!members.has(ref)) throw new Error(`${where} ${tag}: ${ref} is not a member of the result oneOf`);
    }
    return { tag, typeNames: refs.map((ref) => ref.split("/").pop()!) };
  });
}

export function methodModels(doc: OpenRpcDocument): MethodModel[] {
  return doc.methods.map((method) => methodModel(doc, method));
}
