// Builds the Ajv 2020 instance that compiles every params, result and error-info schema.
// Used at generate time (standalone code) and by the linter and tests (in memory).
//
// Component schemas are registered once under COMPONENTS_ID as `$defs`; every
// `#/components/schemas/X` becomes `COMPONENTS_ID#/$defs/X`, and `x-` keys are stripped.

import { Ajv2020 } from "ajv/dist/2020.js";
import type { OpenRpcDocument, Schema, SchemaObject } from "./openrpc-model.js";
import type { MethodModel } from "./method-model.js";
import { ANNOTATION_KEYWORDS, COMPONENT_REF_PREFIX, mapSchema } from "./schema.js";
import { identifier } from "./names.js";

export const SCHEMA_BASE = "https://shardkit.dev/schemas/rpc";
export const COMPONENTS_ID = `${SCHEMA_BASE}/components.json`;

export interface AjvBuildOptions {
  /** false for the server hot path (stop at the first error); true for reports. */
  allErrors: boolean;
  /** Emit source for standaloneCode. */
  standalone?: boolean;
}

export interface CompiledSchemaIds {
  /** method name → schema id of its params */
  params: Record<string, string>;
  /** method name → schema id of its result */
  result: Record<string, string>;
  /** cause name → schema id of its info (causes without info are absent) */
  info: Record<string, string>;
  /** cause name → schema id of its structured `data` (causes whose data is text are absent) */
  data: Record<string, string>;
}

/**
 * A copy of a spec schema ready for Ajv: absolute refs, no `x-` keys and no annotations
 * (they never change validity and would only bloat the standalone code), except the
 * description of a schema holding `not`, which becomes the error message for it.
 */
export function toAjvSchema(schema: Schema): Schema {
  return mapSchema(schema, (s) => {
    const out: SchemaObject = {};
    for (const [key, value] of Object.entries(s)) {
      if (key.startsWith("x-")) continue;
      // A prohibition (`not`) has no natural error text, so its description is kept as the
      // message the server reports (errors are compiled verbose to carry it).
      if (ANNOTATION_KEYWORDS.has(key) && !(key === "description" && "not" in s)) continue;
      out[key] =
        key === "$ref" && typeof value === "string" && value.startsWith(COMPONENT_REF_PREFIX)
          ? `${COMPONENTS_ID}#/$defs/${value.slice(COMPONENT_REF_PREFIX.length)}`
          : value;
    }
    return out;
  });
}

function withId(id: string, schema: Schema): SchemaObject {
  return typeof schema === "boolean"
    ? { $id: id, ...(schema ? {} : { not: {} }) }
    : { $id: id, ...(toAjvSchema(schema) as SchemaObject) };
}

export function createRpcAjv(
  doc: OpenRpcDocument,
  models: MethodModel[],
  options: AjvBuildOptions,
): { ajv: Ajv2020; ids: CompiledSchemaIds } {
  const ajv = new Ajv2020({
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    discriminator: true,
    allErrors: options.allErrors,
    verbose: true,
    ...(options.standalone ? { code: { source: true, esm: true, lines: false } } : {}),
  });
  ajv.addSchema({ $id: COMPONENTS_ID, ...(toAjvSchema({ $defs: doc.components.schemas }) as SchemaObject) });
  const ids: CompiledSchemaIds = { params: {}, result: {}, info: {}, data: {} };
  for (const model of models) {
    const base = `${SCHEMA_BASE}/methods/${encodeURIComponent(model.name)}`;
    ids.params[model.name] = `${base}/params.json`;
    ids.result[model.name] = `${base}/result.json`;
    ajv.addSchema(withId(ids.params[model.name]!, model.paramsSchema));
    ajv.addSchema(withId(ids.result[model.name]!, model.resultSchema));
  }
  for (const [cause, entry] of Object.entries(doc["x-error-cause-catalog"])) {
    if (entry.info !== null) {
      ids.info[cause] = `${SCHEMA_BASE}/causes/${cause}.json`;
      ajv.addSchema(withId(ids.info[cause]!, entry.info as Schema));
    }
    if (entry.dataSchema !== undefined) {
      ids.data[cause] = `${SCHEMA_BASE}/causes/${cause}.data.json`;
      ajv.addSchema(withId(ids.data[cause]!, entry.dataSchema as Schema));
    }
  }
  return { ajv, ids };
}

/**
 * Names of the standalone exports: `params_<method>`, `result_<method>`, `info_<CAUSE>` and
 * `data_<CAUSE>`.
 */
export function standaloneExportNames(ids: CompiledSchemaIds): Record<string, string> {
  const exports: Record<string, string> = {};
  const add = (name: string, id: string) => {
    if (name in exports) throw new Error(`two schemas map to the export name ${name}`);
    exports[name] = id;
  };
  for (const [method, id] of Object.entries(ids.params)) add(`params_${identifier(method)}`, id);
  for (const [method, id] of Object.entries(ids.result)) add(`result_${identifier(method)}`, id);
  for (const [cause, id] of Object.entries(ids.info)) add(`info_${identifier(cause)}`, id);
  for (const [cause, id] of Object.entries(ids.data)) add(`data_${identifier(cause)}`, id);
  return exports;
}
