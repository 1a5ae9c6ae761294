// The curl lines of the docs site: one JSON-RPC POST per example, and for each REST route a
// request per way of authenticating (none, each security scheme the spec declares): a GET, or a
// POST with the operation's example JSON body.

import type { OpenApiDocument, OpenApiParameter, OperationModel } from "./openapi-model.js";
import { isSchemaObject } from "./schema.js";

/** The shell variable the key forms read, so a copied line never carries a real key. */
export const API_KEY_VARIABLE = "SHARDKIT_API_KEY";

/** POSIX single quoting: safe for any text, nothing expands inside. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A JSON-RPC request as one curl line (compact JSON body, POST to the RPC root). */
export function rpcCurl(url: string, request: unknown): string {
  return `curl -sS -X POST ${shellQuote(url)} -H 'Content-Type: application/json' -d ${shellQuote(JSON.stringify(request))}`;
}

export interface CurlForm {
  /** What the line shows: "no key", the scheme name, … */
  label: string;
  command: string;
}

interface SecurityScheme {
  type?: string;
  scheme?: string;
  in?: string;
  name?: string;
}

/** A parameter's documented value: its `example`, else its schema's first example, default, const or enum. */
function exampleValue(parameter: OpenApiParameter): unknown {
  if (parameter.example !== undefined) return parameter.example;
  const schema = isSchemaObject(parameter.schema) ? parameter.schema : {};
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  return undefined;
}

/**
 * The request target of an operation with example values filled in. A required parameter with
 * no documented value shows as `<name>` (for the reader to replace); optional ones are left out.
 */
export function exampleTarget(model: OperationModel): { path: string; query: [string, string][] } {
  let path = model.path;
  const query: [string, string][] = [];
  for (const parameter of model.parameters) {
    const value = exampleValue(parameter);
    if ((value === undefined || value === null) && parameter.required !== true) continue;
    const text =
      value === undefined || value === null
        ? `<${parameter.name}>`
        : encodeURIComponent(typeof value === "string" ? value : JSON.stringify(value));
    if (parameter.in === "path") path = path.replace(`{${parameter.name}}`, text);
    else if (parameter.in === "query") query.push([parameter.name, text]);
  }
  return { path, query };
}

/**
 * curl lines for one operation: without a key when the spec allows it (`{}` among its security
 * requirements), then one per declared scheme (bearer header, API key in query or header).
 */
export function restCurls(doc: OpenApiDocument, model: OperationModel): CurlForm[] {
  const server = (doc.servers?.[0]?.url ?? "http://127.0.0.1").replace(/\/$/, "");
  const { path, query } = exampleTarget(model);
  const url = (extra: [string, string][]) => {
    const pairs = [...query, ...extra].map(([k, v]) => `${encodeURIComponent(k)}=${v}`);
    return `${server}${path}${pairs.length > 0 ? `?${pairs.join("&")}` : ""}`;
  };
  const verb = model.method.toUpperCase();
  const prefix = verb === "GET" ? "curl -sS" : `curl -sS -X ${verb}`;
  // An operation with a JSON request body sends its documented example.
  const example = model.operation.requestBody?.content["application/json"]?.example;
  const data = example === undefined ? "" : ` -H 'Content-Type: application/json' -d ${shellQuote(JSON.stringify(example))}`;
  const requirements = (model.operation as { security?: Record<string, string[]>[] }).security ?? doc.security ?? [{}];
  const schemes = (doc.components.securitySchemes ?? {}) as Record<string, SecurityScheme>;
  const curls: CurlForm[] = [];
  for (const requirement of requirements) {
    const names = Object.keys(requirement);
    if (names.length === 0) {
      curls.push({ label: "no key (public path)", command: `${prefix} ${shellQuote(url([]))}${data}` });
      continue;
    }
    const headers: string[] = [];
    const extra: [string, string][] = [];
    const forms: string[] = [];
    for (const name of names) {
      const scheme = schemes[name];
      if (scheme?.type === "http" && scheme.scheme?.toLowerCase() === "bearer") {
        headers.push(`Authorization: Bearer $${API_KEY_VARIABLE}`);
        forms.push(`Authorization: Bearer header (${name})`);
      } else if (scheme?.type === "apiKey" && scheme.in === "query" && scheme.name) {
        extra.push([scheme.name, `$${API_KEY_VARIABLE}`]);
        forms.push(`?${scheme.name}= query parameter (${name})`);
      } else if (scheme?.type === "apiKey" && scheme.in === "header" && scheme.name) {
        headers.push(`${scheme.name}: $${API_KEY_VARIABLE}`);
        forms.push(`${scheme.name} header (${name})`);
      } else throw new Error(`security scheme ${name} has a form the docs cannot show as curl`);
    }
    // Double quotes where the key variable must expand; the URL and header carry no other `$`.
    const parts = [prefix, ...headers.map((h) => `-H "${h}"`), extra.length > 0 ? `"${url(extra)}"` : shellQuote(url([]))];
    curls.push({ label: `key as ${forms.join(" and ")}`, command: parts.join(" ") + data });
  }
  return curls;
}
