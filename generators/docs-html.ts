// HTML building blocks of the docs site: a small Markdown subset, one-line type summaries that
// link referenced schemas, and JSON with its `$ref`s turned into links.

import type { Schema, SchemaObject } from "./openrpc-model.js";
import { COMPONENT_REF_PREFIX, componentName } from "./schema.js";
import { escapeHtml } from "./templates.js";

/** Where a component schema is documented, relative to the page being written. */
export type SchemaLink = (name: string) => string;

/** An element id from a kind and a name (ids keep the characters safe in a URL fragment, nothing else). */
export function anchorId(kind: string, name: string): string {
  return `${kind}-${name.replace(/[^A-Za-z0-9_.-]/g, "-")}`;
}

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

/** The first sentence of a description as plain text (search results and tables). */
export function firstSentence(text: string | undefined): string {
  if (!text) return "";
  const flat = text.replace(/\s+/g, " ").trim();
  const end = flat.search(/\.(\s|$)/);
  return end < 0 ? flat : flat.slice(0, end + 1);
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
export function typeSummary(schema: Schema, link: SchemaLink): string {
  const summary = (s: Schema) => typeSummary(s, link);
  if (schema === true) return "any";
  if (schema === false) return "nothing";
  const parts: string[] = [];
  if (typeof schema.$ref === "string") {
    const name = componentName(schema.$ref);
    parts.push(`<a href="${escapeHtml(link(name))}">${escapeHtml(name)}</a>`);
  }
  if ("const" in schema) parts.push(`<code>${escapeHtml(JSON.stringify(schema.const))}</code>`);
  else if (Array.isArray(schema.enum))
    parts.push(schema.enum.map((v) => `<code>${escapeHtml(JSON.stringify(v))}</code>`).join(" | "));
  else {
    const types = Array.isArray(schema.type) ? schema.type : typeof schema.type === "string" ? [schema.type] : [];
    for (const t of types) {
      if (t === "array") {
        if (Array.isArray(schema.prefixItems)) parts.push(`[${(schema.prefixItems as Schema[]).map(summary).join(", ")}]`);
        else if (schema.items === false) parts.push("[] (always empty)");
        else parts.push(`${schema.items === undefined ? "any" : summary(schema.items as Schema)}[]`);
      } else if (t === "object") {
        if (schema.properties) parts.push(`{ ${Object.keys(schema.properties).map(escapeHtml).join(", ")} }`);
        else if (!schema.allOf && !schema.oneOf && !schema.$ref) parts.push("object");
      } else {
        parts.push(`${escapeHtml(t)}${bounds(schema)}`);
      }
    }
  }
  if (Array.isArray(schema.allOf)) parts.push((schema.allOf as Schema[]).map(summary).join(" &amp; "));
  const union = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (Array.isArray(union)) parts.push(union.map(summary).join(" | "));
  const text = parts.filter((p) => p.length > 0).join(" &amp; ") || "any";
  return "default" in schema ? `${text} (default <code>${escapeHtml(JSON.stringify(schema.default))}</code>)` : text;
}

/** Pretty JSON as escaped HTML, each `"$ref": "#/components/schemas/X"` a link to X. */
export function jsonWithLinks(value: unknown, link: SchemaLink): string {
  return escapeHtml(JSON.stringify(value, null, 2)).replace(
    /(&quot;\$ref&quot;: )(&quot;#\/components\/schemas\/([A-Za-z0-9_.-]+)&quot;)/g,
    (_match, key: string, quoted: string, name: string) => `${key}<a href="${escapeHtml(link(name))}">${quoted}</a>`,
  );
}

/** The component names a value references directly. */
export function directRefs(value: unknown): string[] {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === "object") {
      for (const [key, child] of Object.entries(node)) {
        if (key === "$ref" && typeof child === "string" && child.startsWith(COMPONENT_REF_PREFIX)) names.add(componentName(child));
        else visit(child);
      }
    }
  };
  visit(value);
  return [...names].sort();
}
