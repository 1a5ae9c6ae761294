// generated/docs/rest.html: one self-contained static page for the REST spec (inline CSS, no
// scripts, no CDN), in the style of docs/rpc.html: every operation with its parameters, every
// response (status, headers, body type, examples), authentication, and every component schema.

import { markdownToHtml, typeSummary } from "./emit-docs.js";
import type { OpenApiDocument, OperationModel } from "./openapi-model.js";
import { isSchemaObject } from "./schema.js";
import { render } from "./templates.js";

const anchor = (kind: string, name: string) => `${kind}-${name.replace(/[^A-Za-z0-9_-]/g, "-")}`;

function operationView(model: OperationModel) {
  return {
    operationId: model.operationId,
    anchor: anchor("op", model.operationId),
    method: model.method.toUpperCase(),
    path: model.path,
    summary: model.operation.summary ?? "",
    description: markdownToHtml(model.operation.description),
    parameters: model.parameters.map((p) => ({
      name: p.name,
      in: p.in,
      required: p.required === true,
      type: typeSummary(p.schema),
      description: markdownToHtml(p.description),
    })),
    responses: model.responses.map(([status, response]) => ({
      status,
      description: markdownToHtml(response.description),
      headers: Object.keys(response.headers ?? {}).join(", "),
      bodies: Object.entries(response.content ?? {}).map(([mediaType, media]) => ({
        mediaType,
        type: typeSummary(media.schema),
        examples: [
          ...(media.example !== undefined ? [{ name: "example", json: JSON.stringify(media.example, null, 2) }] : []),
          ...Object.entries(media.examples ?? {}).map(([name, ex]) => ({
            name: ex.summary ?? name,
            json: JSON.stringify(ex.value, null, 2),
          })),
        ],
      })),
    })),
  };
}

export function emitRestDocs(doc: OpenApiDocument, models: OperationModel[], banner: string): string {
  const schemas = Object.entries(doc.components.schemas).map(([name, schema]) => ({
    name,
    anchor: anchor("schema", name),
    description: markdownToHtml(isSchemaObject(schema) ? schema.description : undefined),
    type: typeSummary(schema),
    json: JSON.stringify(schema, null, 2),
  }));
  const security = Object.entries(doc.components.securitySchemes ?? {}).map(([name, scheme]) => ({
    name,
    description: markdownToHtml(isSchemaObject(scheme) && typeof scheme.description === "string" ? scheme.description : ""),
  }));
  return render("rest.html", {
    banner,
    title: doc.info.title,
    version: doc.info.version,
    openapi: doc.openapi,
    description: markdownToHtml(doc.info.description),
    servers: (doc.servers ?? []).map((s) => ({ url: s.url, description: markdownToHtml(s.description ?? "") })),
    security,
    operations: models.map(operationView),
    schemas,
  });
}
