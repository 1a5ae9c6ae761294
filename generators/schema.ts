// Small helpers for walking JSON Schema 2020-12 objects inside an OpenRPC document.

import type { OpenRpcDocument, Schema, SchemaObject } from "./openrpc-model.js";

export const COMPONENT_REF_PREFIX = "#/components/schemas/";

/** Keywords whose value is one subschema. */
export const SINGLE_SCHEMA_KEYWORDS = [
  "additionalProperties",
  "unevaluatedProperties",
  "items",
  "unevaluatedItems",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
] as const;

/** Keywords whose value is an array of subschemas. */
export const SCHEMA_ARRAY_KEYWORDS = ["allOf", "anyOf", "oneOf", "prefixItems"] as const;

/** Keywords whose value is a map of subschemas. */
export const SCHEMA_MAP_KEYWORDS = ["properties", "patternProperties", "dependentSchemas", "$defs"] as const;

/** Keywords that only annotate; they never change which data is valid. */
export const ANNOTATION_KEYWORDS = new Set([
  "title",
  "description",
  "examples",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$comment",
]);

export function isSchemaObject(value: unknown): value is SchemaObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `#/components/schemas/Foo` → `Foo`; throws for any other reference. */
export function componentName(ref: string): string {
  if (!ref.startsWith(COMPONENT_REF_PREFIX)) {
    throw new Error(`unsupported $ref "${ref}": only ${COMPONENT_REF_PREFIX}<Name> is allowed`);
  }
  return ref.slice(COMPONENT_REF_PREFIX.length);
}

/** The component a schema references, or undefined when it is not a `$ref`. */
export function resolveRef(doc: OpenRpcDocument, schema: Schema): Schema | undefined {
  if (!isSchemaObject(schema) || typeof schema.$ref !== "string") return undefined;
  return doc.components.schemas[componentName(schema.$ref)];
}

/** Follows `$ref` chains until a schema that is not a bare reference. */
export function deref(doc: OpenRpcDocument, schema: Schema): Schema {
  let current = schema;
  for (let depth = 0; depth < 32; depth++) {
    const target = resolveRef(doc, current);
    if (target === undefined) return current;
    current = target;
  }
  throw new Error("$ref chain too deep");
}

/** Calls `visit` for the schema and every subschema below it, depth first. */
export function walkSchema(
  schema: Schema,
  visit: (schema: SchemaObject, path: string) => void,
  path = "",
): void {
  if (!isSchemaObject(schema)) return;
  visit(schema, path);
  for (const key of SINGLE_SCHEMA_KEYWORDS) {
    const sub = schema[key];
    if (sub !== undefined) walkSchema(sub as Schema, visit, `${path}/${key}`);
  }
  for (const key of SCHEMA_ARRAY_KEYWORDS) {
    const subs = schema[key];
    if (Array.isArray(subs))
      subs.forEach((sub, i) => walkSchema(sub as Schema, visit, `${path}/${key}/${i}`));
  }
  for (const key of SCHEMA_MAP_KEYWORDS) {
    const map = schema[key];
    if (isSchemaObject(map)) {
      for (const [name, sub] of Object.entries(map))
        walkSchema(sub as Schema, visit, `${path}/${key}/${name}`);
    }
  }
}

/**
 * Rebuilds a schema tree: `mapSchema` may replace any schema object (children are mapped first
 * on the result). Non-schema values (const, enum, default, examples...) are copied as they are.
 */
export function mapSchema(schema: Schema, transform: (schema: SchemaObject) => SchemaObject): Schema {
  if (!isSchemaObject(schema)) return schema;
  const out: SchemaObject = {};
  for (const [key, value] of Object.entries(transform(schema))) {
    if ((SINGLE_SCHEMA_KEYWORDS as readonly string[]).includes(key)) {
      out[key] = mapSchema(value as Schema, transform);
    } else if ((SCHEMA_ARRAY_KEYWORDS as readonly string[]).includes(key) && Array.isArray(value)) {
      out[key] = value.map((sub) => mapSchema(sub as Schema, transform));
    } else if ((SCHEMA_MAP_KEYWORDS as readonly string[]).includes(key) && isSchemaObject(value)) {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([k, sub]) => [k, mapSchema(sub as Schema, transform)]),
      );
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** A copy of the schema without annotation keywords and without `x-` extension keys. */
export function stripAnnotations(schema: Schema): Schema {
  return mapSchema(schema, (s) =>
    Object.fromEntries(
      Object.entries(s).filter(([key]) => !ANNOTATION_KEYWORDS.has(key) && !key.startsWith("x-")),
    ),
  );
}

/** Structural equality of JSON values (object key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]))
    );
  }
  if (isSchemaObject(a) && isSchemaObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** Every `$ref` string found anywhere in a JSON value, with its JSON pointer. */
export function collectRefs(value: unknown, path = ""): { ref: string; path: string }[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => collectRefs(v, `${path}/${i}`));
  if (!isSchemaObject(value)) return [];
  const found: { ref: string; path: string }[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (key === "$ref" && typeof v === "string") found.push({ ref: v, path });
    else found.push(...collectRefs(v, `${path}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`));
  }
  return found;
}
