// JSON Schema 2020-12 → TypeScript type expressions.
//
// Exactness rules:
// - `const` → literal type, `enum` → union of literals, `prefixItems` → tuple (`items: false`
//   closes it), `type: "null"` → `null`, `oneOf`/`anyOf` → union, `allOf` → intersection.
// - Optional properties are `key?: T` (absent, never `undefined`, under exactOptionalPropertyTypes).
// - In a `oneOf` of inline object branches that is not discriminated by a `const` property, each
//   branch gets `other?: never` for the keys of its siblings, so "exactly one of" type-checks.
// - Assertions TypeScript cannot express (`pattern`, bounds, `if`/`then`, `not`) are left to
//   the validators.

import type { Schema, SchemaObject } from "./openrpc-model.js";
import { isSchemaObject } from "./schema.js";
import { propertyKey } from "./names.js";

export interface TsContext {
  /** TS type name for a `$ref`. */
  typeName(ref: string): string;
  /** The schema a `$ref` points at (used to detect discriminated unions). */
  resolve(ref: string): Schema;
}

const JSDOC_WIDTH = 96;

function wrap(line: string): string[] {
  if (line.length <= JSDOC_WIDTH) return [line];
  const out: string[] = [];
  let current = "";
  for (const word of line.split(" ")) {
    if (current && current.length + 1 + word.length > JSDOC_WIDTH) {
      out.push(current);
      current = word;
    } else {
      current = current ? `${current} ${word}` : word;
    }
  }
  if (current) out.push(current);
  return out;
}

/** A `/** ... *\/` block for `text` (wrapped at ~96 columns), or "" when there is nothing to say. */
export function jsdoc(text: string | undefined, tags: string[] = []): string {
  const body = (text ?? "").trim();
  const lines = [...(body ? body.split("\n").flatMap(wrap) : []), ...tags].map((line) =>
    line.replace(/\*\//g, "*\\/"),
  );
  if (lines.length === 0) return "";
  if (lines.length === 1) return `/** ${lines[0]} */\n`;
  return `/**\n${lines.map((line) => (line ? ` * ${line}` : " *")).join("\n")}\n */\n`;
}

export function literal(value: unknown): string {
  return JSON.stringify(value);
}

function needsParens(type: string): boolean {
  let depth = 0;
  for (let i = 0; i < type.length; i++) {
    const ch = type[i]!;
    if (ch === "/" && type[i + 1] === "*") {
      const end = type.indexOf("*/", i + 2);
      i = end < 0 ? type.length : end + 1;
    } else if (ch === '"') {
      for (i++; i < type.length && type[i] !== '"'; i++) if (type[i] === "\\") i++;
    } else if ("{[(<".includes(ch)) depth++;
    else if ("}])>".includes(ch)) depth--;
    else if (depth === 0 && (ch === "|" || ch === "&")) return true;
  }
  return false;
}

function paren(type: string): string {
  return needsParens(type) ? `(${type})` : type;
}

function typesOf(schema: SchemaObject): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (typeof schema.type === "string") return [schema.type];
  if (schema.properties !== undefined || schema.additionalProperties !== undefined) return ["object"];
  if (schema.items !== undefined || schema.prefixItems !== undefined) return ["array"];
  return [];
}

function deref(schema: Schema, ctx: TsContext): Schema {
  return isSchemaObject(schema) && typeof schema.$ref === "string"
    ? deref(ctx.resolve(schema.$ref), ctx)
    : schema;
}

/** The property that tags every branch with a `const`, if there is one. */
export function discriminatorOf(branches: Schema[], ctx: TsContext): string | undefined {
  const resolved = branches.map((b) => deref(b, ctx));
  const first = resolved[0];
  if (!isSchemaObject(first) || !first.properties) return undefined;
  return Object.keys(first.properties).find((key) =>
    resolved.every(
      (b) =>
        isSchemaObject(b) &&
        isSchemaObject(b.properties?.[key]) &&
        "const" in (b.properties[key] as SchemaObject),
    ),
  );
}

function objectType(schema: SchemaObject, ctx: TsContext, neverKeys: string[]): string {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const members: string[] = [];
  for (const [name, sub] of Object.entries(properties)) {
    const doc = isSchemaObject(sub)
      ? jsdoc(sub.description, sub.deprecated === true ? ["@deprecated"] : [])
      : "";
    members.push(`${doc}${propertyKey(name)}${required.has(name) ? "" : "?"}: ${tsType(sub, ctx)};`);
  }
  for (const name of neverKeys) members.push(`${propertyKey(name)}?: never;`);
  const extra = schema.additionalProperties;
  const closed = extra === false || schema.unevaluatedProperties === false;
  if (extra !== undefined && extra !== false) {
    const value = extra === true ? "unknown" : tsType(extra as Schema, ctx);
    if (members.length === 0) return `{ [key: string]: ${value} }`;
    return `{\n${members.join("\n")}\n} & { [key: string]: unknown }`;
  }
  if (members.length === 0) return closed ? "Record<string, never>" : "{ [key: string]: unknown }";
  return `{\n${members.join("\n")}\n}`;
}

function arrayType(schema: SchemaObject, ctx: TsContext): string {
  const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as Schema[]) : [];
  const items = schema.items as Schema | undefined;
  if (prefix.length === 0) {
    if (items === false) return "[]";
    return `${paren(items === undefined ? "unknown" : tsType(items, ctx))}[]`;
  }
  const minItems = typeof schema.minItems === "number" ? schema.minItems : 0;
  const elements = prefix.map((sub, i) => `${tsType(sub, ctx)}${i < minItems ? "" : "?"}`);
  if (items !== false) elements.push(`...${paren(items === undefined ? "unknown" : tsType(items, ctx))}[]`);
  return `[${elements.join(", ")}]`;
}

/** The type implied by `type` and the object/array keywords, or undefined when they add nothing. */
function ownType(schema: SchemaObject, ctx: TsContext, neverKeys: string[]): string | undefined {
  const types = typesOf(schema);
  const composed =
    schema.$ref !== undefined ||
    schema.allOf !== undefined ||
    schema.oneOf !== undefined ||
    schema.anyOf !== undefined;
  const objectIsTagOnly =
    composed &&
    schema.properties === undefined &&
    schema.additionalProperties === undefined &&
    neverKeys.length === 0;
  const rendered = types
    .map((t) => {
      switch (t) {
        case "string":
          return "string";
        case "integer":
        case "number":
          return "number";
        case "boolean":
          return "boolean";
        case "null":
          return "null";
        case "array":
          return arrayType(schema, ctx);
        case "object":
          return objectIsTagOnly ? undefined : objectType(schema, ctx, neverKeys);
        default:
          throw new Error(`unsupported JSON Schema type "${t}"`);
      }
    })
    .filter((t): t is string => t !== undefined);
  return rendered.length === 0 ? undefined : rendered.join(" | ");
}

function unionType(branches: Schema[], ctx: TsContext): string {
  const discriminated = discriminatorOf(branches, ctx) !== undefined;
  const inlineKeys = branches.map((b) =>
    !discriminated && isSchemaObject(b) && b.$ref === undefined && b.properties
      ? Object.keys(b.properties)
      : [],
  );
  const allKeys = [...new Set(inlineKeys.flat())];
  return branches
    .map((branch, i) => {
      const own = inlineKeys[i]!;
      const never = own.length > 0 ? allKeys.filter((k) => !own.includes(k)) : [];
      return paren(tsType(branch, ctx, never));
    })
    .join(" | ");
}

/** The TypeScript type of a schema. `neverKeys` are sibling-branch keys to forbid (see header). */
export function tsType(schema: Schema, ctx: TsContext, neverKeys: string[] = []): string {
  if (schema === true) return "unknown";
  if (schema === false) return "never";
  const parts: string[] = [];
  if (typeof schema.$ref === "string") parts.push(ctx.typeName(schema.$ref));
  if ("const" in schema) {
    parts.push(literal(schema.const));
  } else if (Array.isArray(schema.enum)) {
    parts.push(schema.enum.map(literal).join(" | "));
  } else {
    const own = ownType(schema, ctx, neverKeys);
    if (own !== undefined) parts.push(own);
  }
  if (Array.isArray(schema.allOf)) parts.push(...(schema.allOf as Schema[]).map((sub) => tsType(sub, ctx)));
  const union = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (Array.isArray(union)) parts.push(unionType(union, ctx));
  const unique = [...new Set(parts)];
  if (unique.length === 0) return "unknown";
  return unique.length === 1 ? unique[0]! : unique.map(paren).join(" & ");
}
