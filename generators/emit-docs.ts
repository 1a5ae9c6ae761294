// generated/docs/rpc.html: one self-contained static page (inline CSS, no scripts, no CDN)
// with every method, its params (and each request variant), result, error causes and
// examples, the cause catalogue and every component schema.

import type { ContentDescriptor, OpenRpcDocument, Schema, SchemaObject } from "./openrpc-model.js";
import type { MethodModel } from "./method-model.js";
import { componentName, deref, isSchemaObject } from "./schema.js";
import { escapeHtml, render } from "./templates.js";

const anchor = (kind: string, name: string) => `${kind}-${name.replace(/[^A-Za-z0-9_-]/g, "-")}`;

/** A tiny Markdown subset: paragraphs, "- " lists, `code` and **bold**. */
export function markdownToHtml(text: string | undefined): string {
  if (!text) return "";
  const inline = (s: string) =>
    escapeHtml(s)
      .replace(/`([^`]+)`/g, "<code>$1</code>")
      .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>");
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((block) => {
      const lines = block.split("\n");
      if (lines[0]!.trimStart().startsWith("- ")) {
        const items: string[] = [];
        for (const line of lines) {
          if (line.trimStart().startsWith("- ")) items.push(line.trimStart().slice(2));
          else items[items.length - 1] += ` ${line.trim()}`;
        }
        return `<ul>${items.map((item) => `<li>${inline(item)}</li>`).join("")}</ul>`;
      }
      return `<p>${inline(lines.map((l) => l.trim()).join(" "))}</p>`;
    })
    .join("\n");
}

function bounds(schema: SchemaObject): string {
  const parts: string[] = [];
  if (typeof schema.minimum === "number") parts.push(`≥ ${schema.minimum}`);
  if (typeof schema.maximum === "number") parts.push(`≤ ${schema.maximum}`);
  if (typeof schema.minLength === "number") parts.push(`length ≥ ${schema.minLength}`);
  if (typeof schema.maxLength === "number") parts.push(`length ≤ ${schema.maxLength}`);
  return parts.length > 0 ? ` (${parts.join(", ")})` : "";
}

/** One-line HTML summary of a schema's type, linking referenced components. */
export function typeSummary(schema: Schema): string {
  if (schema === true) return "any";
  if (schema === false) return "nothing";
  const parts: string[] = [];
  if (typeof schema.$ref === "string") {
    const name = componentName(schema.$ref);
    parts.push(`<a href="#${anchor("schema", name)}">${name}</a>`);
  }
  if ("const" in schema) parts.push(`<code>${escapeHtml(JSON.stringify(schema.const))}</code>`);
  else if (Array.isArray(schema.enum))
    parts.push(schema.enum.map((v) => `<code>${escapeHtml(JSON.stringify(v))}</code>`).join(" | "));
  else {
    const types = Array.isArray(schema.type)
      ? schema.type
      : typeof schema.type === "string"
        ? [schema.type]
        : [];
    for (const t of types) {
      if (t === "array") {
        if (Array.isArray(schema.prefixItems))
          parts.push(`[${(schema.prefixItems as Schema[]).map(typeSummary).join(", ")}]`);
        else if (schema.items === false) parts.push("[] (always empty)");
        else parts.push(`${schema.items === undefined ? "any" : typeSummary(schema.items as Schema)}[]`);
      } else if (t === "object") {
        if (schema.properties) parts.push(`{ ${Object.keys(schema.properties).join(", ")} }`);
        else if (!schema.allOf && !schema.oneOf && !schema.$ref) parts.push("object");
      } else {
        parts.push(`${t}${bounds(schema)}`);
      }
    }
  }
  if (Array.isArray(schema.allOf)) parts.push((schema.allOf as Schema[]).map(typeSummary).join(" &amp; "));
  const union = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (Array.isArray(union)) parts.push(union.map(typeSummary).join(" | "));
  const text = parts.filter((p) => p.length > 0).join(" &amp; ") || "any";
  return "default" in schema
    ? `${text} (default <code>${escapeHtml(JSON.stringify(schema.default))}</code>)`
    : text;
}

function descriptorRows(params: ContentDescriptor[]) {
  return params.map((p) => ({
    name: p.name,
    required: p.required === true,
    type: typeSummary(p.schema),
    description: markdownToHtml(
      p.description ?? (isSchemaObject(p.schema) ? p.schema.description : undefined),
    ),
  }));
}

function propertyRows(schema: Schema) {
  if (!isSchemaObject(schema)) return [];
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, sub]) => ({
    name,
    required: required.has(name),
    type: typeSummary(sub),
    description: markdownToHtml(isSchemaObject(sub) ? sub.description : undefined),
  }));
}

function exampleParams(params: { name: string; value: unknown }[]): Record<string, unknown> {
  return Object.fromEntries(params.map((p) => [p.name, p.value]));
}

function methodView(doc: OpenRpcDocument, model: MethodModel) {
  const catalog = doc["x-error-cause-catalog"];
  const result = model.method.result;
  const resultTarget = deref(doc, model.resultSchema);
  const resultVariants =
    isSchemaObject(resultTarget) && Array.isArray(resultTarget.oneOf)
      ? (resultTarget.oneOf as Schema[]).map(typeSummary)
      : [];
  return {
    name: model.name,
    anchor: anchor("method", model.name),
    summary: model.summary,
    description: markdownToHtml(model.description),
    params: descriptorRows(model.method.params),
    noParams: model.noParams,
    paramsSchema: model.usesParamsSchema ? typeSummary(model.paramsSchema) : null,
    discriminator: model.discriminator ?? null,
    common: model.commonParams.map(typeSummary).join(" &amp; "),
    variants: model.variants.map((v) => {
      const branch = deref(doc, v.branch);
      return {
        tag: v.tag,
        typeName: v.typeName,
        description: markdownToHtml(isSchemaObject(branch) ? branch.description : undefined),
        rows: propertyRows(branch),
      };
    }),
    result: {
      type: typeSummary(model.resultSchema),
      description: markdownToHtml(result?.description),
      variants: resultVariants,
    },
    causes: model.errorCauses.map((name) => ({
      name,
      anchor: anchor("cause", name),
      error: catalog[name]?.error ?? "?",
      code: catalog[name]?.code ?? 0,
      httpStatus: catalog[name]?.httpStatus ?? 0,
    })),
    examples: (model.method.examples ?? []).map((example) => ({
      name: example.name,
      description: markdownToHtml(example.description),
      request: JSON.stringify(
        { jsonrpc: "2.0", id: "dontcare", method: model.name, params: exampleParams(example.params) },
        null,
        2,
      ),
      response:
        example.result === undefined
          ? null
          : JSON.stringify({ jsonrpc: "2.0", id: "dontcare", result: example.result.value }, null, 2),
    })),
  };
}

export function emitDocs(doc: OpenRpcDocument, models: MethodModel[], banner: string): string {
  const causes = Object.entries(doc["x-error-cause-catalog"]).map(([name, entry]) => ({
    name,
    anchor: anchor("cause", name),
    error: entry.error,
    code: entry.code,
    message: entry.message,
    httpStatus: entry.httpStatus,
    info: entry.info === null ? "none (no <code>info</code> member)" : typeSummary(entry.info),
    data: markdownToHtml(entry.data),
    dataSchema: entry.dataSchema === undefined ? null : typeSummary(entry.dataSchema),
    description: markdownToHtml(entry.description),
    usedBy: models
      .filter((m) => m.errorCauses.includes(name))
      .map((m) => ({ name: m.name, anchor: anchor("method", m.name) })),
  }));
  const schemas = Object.entries(doc.components.schemas).map(([name, schema]) => ({
    name,
    anchor: anchor("schema", name),
    description: markdownToHtml(isSchemaObject(schema) ? schema.description : undefined),
    type: typeSummary(schema),
    json: JSON.stringify(schema, null, 2),
  }));
  return render("rpc.html", {
    banner,
    title: doc.info.title,
    version: doc.info.version,
    openrpc: doc.openrpc,
    description: markdownToHtml(doc.info.description),
    servers: (doc.servers ?? []).map((s) => ({
      url: s.url,
      description: markdownToHtml(s.description ?? s.summary ?? ""),
    })),
    methods: models.map((m) => methodView(doc, m)),
    causes,
    schemas,
  });
}
