// generated/rpc/types.ts: one exported type per component schema (same name), then per method
// `<Pascal>Params` / `<Pascal>Result`, then one params type per request variant of a
// discriminated params union (e.g. `ViewStateParams` for query's `view_state`).

import type { OpenRpcDocument, Schema } from "./openrpc-model.js";
import type { MethodModel } from "./method-model.js";
import { componentName, isSchemaObject } from "./schema.js";
import { jsdoc, tsType, type TsContext } from "./schema-to-ts.js";
import { render } from "./templates.js";

interface Declaration {
  doc: string;
  name: string;
  type: string;
}

export function tsContext(doc: OpenRpcDocument): TsContext {
  return {
    typeName: (ref) => componentName(ref),
    resolve: (ref) => {
      const schema = doc.components.schemas[componentName(ref)];
      if (schema === undefined) throw new Error(`unresolved $ref ${ref}`);
      return schema;
    },
  };
}

function schemaDoc(schema: Schema): string {
  if (!isSchemaObject(schema)) return "";
  return jsdoc(schema.description, schema.deprecated === true ? ["@deprecated"] : []);
}

export function methodTypeNames(model: MethodModel): string[] {
  return [`${model.pascal}Params`, `${model.pascal}Result`, ...model.variants.map((v) => v.typeName)];
}

/**
 * Variant params types a method shares with an earlier method: an alias (`changes` /
 * `EXPERIMENTAL_changes`) names the same params union, so its variants are the same types
 * and are emitted once. `seen` maps each variant type name to the schemas it was built from.
 */
export function sharedVariantNames(model: MethodModel, seen: Map<string, string>): Set<string> {
  const shared = new Set<string>();
  for (const variant of model.variants) {
    const source = JSON.stringify([model.commonParams, variant.branch]);
    const earlier = seen.get(variant.typeName);
    if (earlier === source) shared.add(variant.typeName);
    else if (earlier === undefined) seen.set(variant.typeName, source);
  }
  return shared;
}

export function emitTypes(doc: OpenRpcDocument, models: MethodModel[], banner: string): string {
  const ctx = tsContext(doc);
  const components: Declaration[] = Object.entries(doc.components.schemas).map(([name, schema]) => ({
    doc: schemaDoc(schema),
    name,
    type: tsType(schema, ctx),
  }));
  const taken = new Set(components.map((c) => c.name));
  const methods: Declaration[] = [];
  const variantSources = new Map<string, string>();
  for (const model of models) {
    const shared = sharedVariantNames(model, variantSources);
    for (const name of methodTypeNames(model)) {
      if (shared.has(name)) continue;
      if (taken.has(name))
        throw new Error(`type name ${name} (method ${model.name}) clashes with another type`);
      taken.add(name);
    }
    methods.push({
      doc: jsdoc(`Params of \`${model.name}\`${model.usesParamsSchema ? " (its x-params-schema)" : ""}.`),
      name: `${model.pascal}Params`,
      type: tsType(model.paramsSchema, ctx),
    });
    methods.push({
      doc: jsdoc(
        `Result of \`${model.name}\`.${model.method.result?.description ? ` ${model.method.result.description}` : ""}`,
      ),
      name: `${model.pascal}Result`,
      type: tsType(model.resultSchema, ctx),
    });
    for (const variant of model.variants) {
      if (shared.has(variant.typeName)) continue;
      const parts = [...model.commonParams, variant.branch].map((s) => tsType(s, ctx));
      methods.push({
        doc: jsdoc(`Params of \`${model.name}\` with \`${model.discriminator}: "${variant.tag}"\`.`),
        name: variant.typeName,
        type: parts.join(" & "),
      });
    }
  }
  return render("types.ts", { banner, components, methods });
}
