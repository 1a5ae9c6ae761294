// generated/docs/: one static, offline docs site for both specs and the guides. An index, a page
// per guide (guides/<name>.html, from docs/*.md), per JSON-RPC method (rpc/<method>.html) and per
// REST operation (rest/<operationId>.html), the error-cause catalogue, the differences from
// nearcore (from specs/nearcore-differences.yaml), a schema page per spec with cross links, and a
// prebuilt search index (search-index.js, a classic script so it loads from file:// too). Inline
// CSS/JS, no CDN, no network; the output is a function of the specs and guides (no timestamps).

import { API_KEY_VARIABLE, restCurls, rpcCurl } from "./docs-curl.js";
import { anchorId, directRefs, firstSentence, jsonWithLinks, markdownToHtml, typeSummary, type SchemaLink } from "./docs-html.js";
import type { Guide } from "./docs-guides.js";
import { methodGroups } from "./docs-nav.js";
import type { MethodModel } from "./method-model.js";
import type { OpenApiDocument, OperationModel } from "./openapi-model.js";
import type { ContentDescriptor, OpenRpcDocument, Schema } from "./openrpc-model.js";
import { deref, isSchemaObject } from "./schema.js";
import { render } from "./templates.js";

export interface DocsSiteInput {
  rpc: { doc: OpenRpcDocument; models: MethodModel[] };
  rest: { doc: OpenApiDocument; models: OperationModel[] } | undefined;
  /** The "generated from …, do not edit" line, without comment markers. */
  banner: string;
  /** The guides, in reading order (none for a spec without a docs/ folder beside it). */
  guides: Guide[];
  /** specs/nearcore-differences.yaml, when the spec root has one. */
  differences: NearcoreDifference[] | undefined;
}

/** One entry of specs/nearcore-differences.yaml. */
export interface NearcoreDifference {
  id: string;
  methods: string[];
  request_types?: string[];
  field?: string;
  probe: string;
  nearcore: string;
  shardkit: string;
  reason: string;
  tested_by?: string;
}

export const DOCS_DIR = "docs";
export const SITE_TITLE = "shardkit docs";
export const SEARCH_INDEX_FILE = "search-index.js";

/** Page paths inside the site (relative to generated/docs/). */
export const docsPaths = {
  index: "index.html",
  errors: "errors.html",
  rpcSchemas: "rpc-schemas.html",
  restSchemas: "rest-schemas.html",
  differences: "nearcore-differences.html",
  method: (name: string) => `rpc/${fileName(name)}.html`,
  route: (operationId: string) => `rest/${fileName(operationId)}.html`,
};

function fileName(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]/g, "-");
}

/** One search entry: [title, kind, url relative to the site root, text searched besides the title]. */
export type SearchEntry = [string, string, string, string];

interface Link {
  label: string;
  href: string;
}

/** "../" for pages one folder down, "" at the root. */
function rootOf(page: string): string {
  return "../".repeat(page.split("/").length - 1);
}

function schemaLinker(page: string, schemasPage: string): SchemaLink {
  return (name) => `${rootOf(page)}${schemasPage}#${anchorId("schema", name)}`;
}

function uniqueIds(names: string[], kind: string): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const base = anchorId(kind, name);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count === 0 ? base : `${base}-${count + 1}`;
  });
}

function descriptorRows(params: ContentDescriptor[], link: SchemaLink) {
  return params.map((p) => ({
    name: p.name,
    anchor: anchorId("param", p.name),
    required: p.required === true,
    type: typeSummary(p.schema, link),
    description: markdownToHtml(p.description ?? (isSchemaObject(p.schema) ? p.schema.description : undefined)),
  }));
}

function propertyRows(schema: Schema, link: SchemaLink) {
  if (!isSchemaObject(schema)) return [];
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, sub]) => ({
    name,
    required: required.has(name),
    type: typeSummary(sub, link),
    description: markdownToHtml(isSchemaObject(sub) ? sub.description : undefined),
  }));
}

function rpcServer(doc: OpenRpcDocument): string {
  return doc.servers?.[0]?.url ?? "http://127.0.0.1:3030";
}

function methodPage(doc: OpenRpcDocument, model: MethodModel) {
  const page = docsPaths.method(model.name);
  const link = schemaLinker(page, docsPaths.rpcSchemas);
  const catalog = doc["x-error-cause-catalog"];
  const resultTarget = deref(doc, model.resultSchema);
  const examples = model.method.examples ?? [];
  const exampleIds = uniqueIds(examples.map((e) => e.name), "example");
  const body = render("docs/method.html", {
    root: rootOf(page),
    name: model.name,
    summary: model.summary,
    description: markdownToHtml(model.description),
    server: rpcServer(doc),
    params: descriptorRows(model.method.params, link),
    noParams: model.noParams,
    paramsSchema: model.usesParamsSchema ? typeSummary(model.paramsSchema, link) : null,
    discriminator: model.discriminator ?? null,
    common: model.commonParams.map((s) => typeSummary(s, link)).join(" &amp; "),
    variants: model.variants.map((v) => {
      const branch = deref(doc, v.branch);
      return {
        tag: v.tag,
        anchor: anchorId("variant", v.tag),
        typeName: v.typeName,
        description: markdownToHtml(isSchemaObject(branch) ? branch.description : undefined),
        rows: propertyRows(branch, link),
      };
    }),
    result: {
      type: typeSummary(model.resultSchema, link),
      description: markdownToHtml(model.method.result?.description),
      variants:
        isSchemaObject(resultTarget) && Array.isArray(resultTarget.oneOf)
          ? (resultTarget.oneOf as Schema[]).map((s) => typeSummary(s, link))
          : [],
    },
    causes: model.errorCauses.map((name) => {
      const entry = catalog[name];
      if (entry === undefined) throw new Error(`${model.name}: error cause ${name} is not in the catalogue`);
      return {
        name,
        anchor: anchorId("cause", name),
        error: entry.error,
        code: entry.code,
        message: entry.message,
        httpStatus: entry.httpStatus,
        info: entry.info === null ? "none" : typeSummary(entry.info, link),
      };
    }),
    examples: examples.map((example, index) => {
      const request = {
        jsonrpc: "2.0",
        id: "dontcare",
        method: model.name,
        params: Object.fromEntries(example.params.map((p) => [p.name, p.value])),
      };
      return {
        name: example.name,
        anchor: exampleIds[index]!,
        description: markdownToHtml(example.description),
        request: JSON.stringify(request, null, 2),
        curl: rpcCurl(rpcServer(doc), request),
        response:
          example.result === undefined
            ? null
            : JSON.stringify({ jsonrpc: "2.0", id: "dontcare", result: example.result.value }, null, 2),
      };
    }),
  });
  return { page, title: model.name, body };
}

function routeLabel(model: OperationModel): string {
  return `${model.method.toUpperCase()} ${model.path}`;
}

/** The JSON request body of a POST operation: its schema and its example, or undefined. */
function requestBodyOf(model: OperationModel, link: ReturnType<typeof schemaLinker>) {
  const media = model.operation.requestBody?.content["application/json"];
  if (media === undefined) return undefined;
  return { type: typeSummary(media.schema, link), example: JSON.stringify(media.example ?? {}, null, 2) };
}

function routePage(doc: OpenApiDocument, model: OperationModel) {
  const page = docsPaths.route(model.operationId);
  const link = schemaLinker(page, docsPaths.restSchemas);
  const body = render("docs/route.html", {
    root: rootOf(page),
    verb: model.method.toUpperCase(),
    path: model.path,
    operationId: model.operationId,
    tags: (model.operation.tags ?? []).join(", "),
    summary: model.operation.summary ?? "",
    description: markdownToHtml(model.operation.description),
    keyVariable: API_KEY_VARIABLE,
    parameters: model.parameters.map((p) => ({
      name: p.name,
      anchor: anchorId(`param-${p.in}`, p.name),
      in: p.in,
      required: p.required === true,
      type: typeSummary(p.schema, link),
      description: markdownToHtml(p.description),
    })),
    requestBody: requestBodyOf(model, link),
    curls: restCurls(doc, model),
    responses: model.responses.map(([status, response]) => ({
      status,
      anchor: anchorId("status", status),
      description: markdownToHtml(response.description),
      headers: Object.keys(response.headers ?? {}).join(", "),
      bodies: Object.entries(response.content ?? {}).map(([mediaType, media]) => ({
        mediaType,
        type: typeSummary(media.schema, link),
        examples: [
          ...(media.example !== undefined ? [{ name: "example", value: media.example }] : []),
          ...Object.entries(media.examples ?? {}).map(([name, ex]) => ({ name: ex.summary ?? name, value: ex.value })),
        ].map(({ name, value }) => ({ name, body: typeof value === "string" ? value : JSON.stringify(value, null, 2) })),
      })),
    })),
  });
  return { page, title: routeLabel(model), body };
}

/** name → the pages and schemas that reference it directly, as links from `fromPage`. */
function referrers(
  schemas: Record<string, Schema>,
  users: { label: string; page: string; value: unknown }[],
  schemasPage: string,
): Map<string, { label: string; page: string }[]> {
  const out = new Map<string, { label: string; page: string }[]>();
  const add = (name: string, user: { label: string; page: string }) => {
    const list = out.get(name) ?? [];
    if (!list.some((u) => u.page === user.page)) list.push(user);
    out.set(name, list);
  };
  for (const user of users) for (const name of directRefs(user.value)) add(name, user);
  for (const [owner, schema] of Object.entries(schemas)) {
    for (const name of directRefs(schema)) {
      if (name !== owner) add(name, { label: owner, page: `${schemasPage}#${anchorId("schema", owner)}` });
    }
  }
  return out;
}

function schemasPage(
  page: string,
  heading: string,
  source: string,
  schemas: Record<string, Schema>,
  users: { label: string; page: string; value: unknown }[],
) {
  const link = schemaLinker(page, page);
  const usedBy = referrers(schemas, users, page);
  const body = render("docs/schemas.html", {
    heading,
    source,
    schemas: Object.entries(schemas).map(([name, schema]) => ({
      name,
      anchor: anchorId("schema", name),
      description: markdownToHtml(isSchemaObject(schema) ? schema.description : undefined),
      type: typeSummary(schema, link),
      usedBy: (usedBy.get(name) ?? []).map((u) => ({ label: u.label, href: `${rootOf(page)}${u.page}` })),
      schemaJson: jsonWithLinks(schema, link),
    })),
  });
  return { page, title: heading, body };
}

function errorsPage(doc: OpenRpcDocument, models: MethodModel[]) {
  const page = docsPaths.errors;
  const link = schemaLinker(page, docsPaths.rpcSchemas);
  const body = render("docs/errors.html", {
    causes: Object.entries(doc["x-error-cause-catalog"]).map(([name, entry]) => ({
      name,
      anchor: anchorId("cause", name),
      error: entry.error,
      code: entry.code,
      message: entry.message,
      httpStatus: entry.httpStatus,
      info: entry.info === null ? "none (no <code>info</code> member)" : typeSummary(entry.info, link),
      data: markdownToHtml(entry.data),
      dataSchema: entry.dataSchema === undefined ? null : typeSummary(entry.dataSchema, link),
      description: markdownToHtml(entry.description),
      usedBy: models
        .filter((m) => m.errorCauses.includes(name))
        .map((m) => ({ label: m.name, href: `${docsPaths.method(m.name)}#${anchorId("cause", name)}` })),
    })),
  });
  return { page, title: "Error causes", body };
}

function indexPage(input: DocsSiteInput) {
  const { rpc, rest } = input;
  const body = render("docs/index.html", {
    siteTitle: SITE_TITLE,
    keyVariable: API_KEY_VARIABLE,
    rpc: {
      title: rpc.doc.info.title,
      version: rpc.doc.info.version,
      openrpc: rpc.doc.openrpc,
      description: markdownToHtml(rpc.doc.info.description),
      servers: (rpc.doc.servers ?? []).map((s) => ({ url: s.url, description: markdownToHtml(s.description ?? s.summary ?? "") })),
      groups: methodGroups(rpc.models.map((m) => m.name)).map((group) => ({
        title: group.title,
        id: anchorId("methods", group.id),
        methods: group.methods.flatMap((entry) =>
          [entry.name, ...entry.aliases].map((name, index) => ({
            label: name,
            href: docsPaths.method(name),
            alias: index > 0,
            summary: rpc.models.find((m) => m.name === name)!.summary,
          })),
        ),
      })),
    },
    guides: input.guides.map((g) => ({ label: g.label, href: g.page, covers: markdownToHtml(g.covers) })),
    differences: input.differences === undefined ? null : docsPaths.differences,
    rest:
      rest === undefined
        ? null
        : {
            title: rest.doc.info.title,
            version: rest.doc.info.version,
            openapi: rest.doc.openapi,
            description: markdownToHtml(rest.doc.info.description),
            servers: (rest.doc.servers ?? []).map((s) => ({ url: s.url, description: markdownToHtml(s.description ?? "") })),
            routes: rest.models.map((m) => ({ label: routeLabel(m), href: docsPaths.route(m.operationId), summary: m.operation.summary ?? "" })),
            security: Object.entries(rest.doc.components.securitySchemes ?? {}).map(([name, scheme]) => ({
              name,
              description: markdownToHtml(
                isSchemaObject(scheme) && typeof scheme.description === "string" ? scheme.description : "",
              ),
            })),
          },
  });
  return { page: docsPaths.index, title: "Overview", body };
}

function guidePage(guide: Guide) {
  const body = render("docs/guide.html", {
    // The title heading first, then the table of contents, then the rest.
    heading: guide.html.slice(0, guide.html.indexOf("</h1>") + "</h1>".length),
    content: guide.html.slice(guide.html.indexOf("</h1>") + "</h1>".length),
    source: `docs/${guide.name}.md`,
    toc: guide.headings.filter((h) => h.level === 2).map((h) => ({ id: h.id, text: h.text })),
  });
  return { page: guide.page, title: guide.title, body };
}

function differencesPage(differences: NearcoreDifference[], models: MethodModel[]) {
  const page = docsPaths.differences;
  const known = new Set(models.map((m) => m.name));
  const body = render("docs/differences.html", {
    differences: differences.map((d) => ({
      id: d.id,
      anchor: anchorId("difference", d.id),
      methods: d.methods.map((name) => ({ name, href: known.has(name) ? docsPaths.method(name) : null })),
      requestTypes: (d.request_types ?? []).join(", "),
      field: d.field ?? "",
      nearcore: markdownToHtml(d.nearcore),
      shardkit: markdownToHtml(d.shardkit),
      reason: markdownToHtml(d.reason),
      testedBy: d.tested_by ?? "",
      probe: d.probe,
    })),
  });
  return { page, title: "Differences from nearcore", body };
}

/** Everything the search box can find, most useful kinds first (ties keep this order). */
function searchEntries(input: DocsSiteInput): SearchEntry[] {
  const { rpc, rest } = input;
  const entries: SearchEntry[] = [];
  for (const m of rpc.models) entries.push([m.name, "JSON-RPC method", docsPaths.method(m.name), m.summary]);
  for (const m of rest?.models ?? []) {
    entries.push([routeLabel(m), "REST route", docsPaths.route(m.operationId), `${m.operationId} ${m.operation.summary ?? ""}`]);
  }
  for (const m of rpc.models) {
    for (const v of m.variants) {
      const branch = deref(rpc.doc, v.branch);
      entries.push([
        `${m.name} ${v.tag}`,
        `${m.discriminator ?? "variant"} of ${m.name}`,
        `${docsPaths.method(m.name)}#${anchorId("variant", v.tag)}`,
        `${v.typeName} ${firstSentence(isSchemaObject(branch) ? branch.description : undefined)}`,
      ]);
    }
  }
  for (const guide of input.guides) {
    entries.push([guide.title, "guide", guide.page, `${guide.label} ${guide.covers} ${guide.lead}`]);
    for (const heading of guide.headings.slice(1)) {
      entries.push([heading.text, `section of the guide "${guide.label}"`, `${guide.page}#${heading.id}`, ""]);
    }
  }
  for (const d of input.differences ?? []) {
    entries.push([d.id, "difference from nearcore", `${docsPaths.differences}#${anchorId("difference", d.id)}`, `${d.methods.join(" ")} ${firstSentence(d.shardkit)}`]);
  }
  for (const [name, entry] of Object.entries(rpc.doc["x-error-cause-catalog"])) {
    entries.push([name, "error cause", `${docsPaths.errors}#${anchorId("cause", name)}`, `${entry.error} ${entry.code} ${firstSentence(entry.description)}`]);
  }
  for (const [name, schema] of Object.entries(rpc.doc.components.schemas)) {
    entries.push([name, "JSON-RPC schema", `${docsPaths.rpcSchemas}#${anchorId("schema", name)}`, firstSentence(isSchemaObject(schema) ? schema.description : undefined)]);
  }
  for (const [name, schema] of Object.entries(rest?.doc.components.schemas ?? {})) {
    entries.push([name, "REST schema", `${docsPaths.restSchemas}#${anchorId("schema", name)}`, firstSentence(isSchemaObject(schema) ? schema.description : undefined)]);
  }
  return entries;
}

/**
 * Template output without trailing spaces and blank lines (no prettier: the pages are large);
 * inside <pre> every line is kept as it is (a guide's code block keeps its blank lines).
 */
function tidy(html: string): string {
  let inPre = false;
  const lines: string[] = [];
  for (const line of html.split("\n")) {
    if (inPre) lines.push(line);
    else if (line.trimEnd().length > 0) lines.push(line.trimEnd());
    const opens = line.lastIndexOf("<pre");
    const closes = line.lastIndexOf("</pre>");
    if (opens > closes) inPre = true;
    else if (closes >= 0) inPre = false;
  }
  return `${lines.join("\n")}\n`;
}

/** Every file of the site, keyed by its path relative to generated/. */
export function emitDocsSite(input: DocsSiteInput): Map<string, string> {
  const { rpc, rest } = input;
  const pages = [
    indexPage(input),
    ...input.guides.map(guidePage),
    ...(input.differences === undefined ? [] : [differencesPage(input.differences, rpc.models)]),
    ...rpc.models.map((m) => methodPage(rpc.doc, m)),
    ...(rest?.models ?? []).map((m) => routePage(rest!.doc, m)),
    errorsPage(rpc.doc, rpc.models),
    schemasPage(
      docsPaths.rpcSchemas,
      "JSON-RPC schemas",
      "openrpc.json",
      rpc.doc.components.schemas,
      [
        ...rpc.models.map((m) => ({ label: m.name, page: docsPaths.method(m.name), value: m.method })),
        ...Object.entries(rpc.doc["x-error-cause-catalog"]).map(([name, entry]) => ({
          label: name,
          page: `${docsPaths.errors}#${anchorId("cause", name)}`,
          value: entry,
        })),
      ],
    ),
    ...(rest === undefined
      ? []
      : [
          schemasPage(
            docsPaths.restSchemas,
            "REST schemas",
            "openapi.json",
            rest.doc.components.schemas,
            rest.models.map((m) => ({
              label: routeLabel(m),
              page: docsPaths.route(m.operationId),
              value: [m.parameters, m.responses],
            })),
          ),
        ]),
  ];
  const nav = {
    guides: input.guides.map((g) => ({ label: g.label, href: g.page })),
    methodGroups: methodGroups(rpc.models.map((m) => m.name)).map((group) => ({
      title: group.title,
      methods: group.methods.map((entry) => ({
        label: entry.name,
        href: docsPaths.method(entry.name),
        aliases: entry.aliases.map((name) => ({ label: name, href: docsPaths.method(name) })),
      })),
    })),
    differences: input.differences === undefined ? null : docsPaths.differences,
    routes: (rest?.models ?? []).map((m) => ({ label: routeLabel(m), href: docsPaths.route(m.operationId) })),
  };
  const files = new Map<string, string>();
  for (const { page, title, body } of pages) {
    const file = `${DOCS_DIR}/${page}`;
    if (files.has(file)) throw new Error(`two docs pages map to ${file}`);
    files.set(
      file,
      tidy(
        render("docs/layout.html", {
          banner: `<!-- ${input.banner} -->`,
          root: rootOf(page),
          page,
          pageTitle: title,
          siteTitle: SITE_TITLE,
          nav,
          body,
        }),
      ),
    );
  }
  const entries = searchEntries(input);
  files.set(
    `${DOCS_DIR}/${SEARCH_INDEX_FILE}`,
    `// ${input.banner}\n// The docs site's search index: [title, kind, url from the site root, text].\nwindow.SHARDKIT_DOCS_SEARCH = [\n${entries
      .map((e) => `  ${JSON.stringify(e)},`)
      .join("\n")}\n];\n`,
  );
  return files;
}
