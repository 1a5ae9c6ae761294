// The Ajv 2020 instance for the REST document: one schema per JSON response body
// (operation × status), with the document's component schemas registered once as `$defs`.
// Same options as the OpenRPC instance (ajv.ts), so both specs follow one dialect.

import { Ajv2020 } from "ajv/dist/2020.js";
import { COMPONENTS_ID, toAjvSchema } from "./ajv.js";
import type { OpenApiDocument, OperationModel } from "./openapi-model.js";
import type { Schema, SchemaObject } from "./openrpc-model.js";

export const REST_SCHEMA_BASE = "https://shardkit.dev/schemas/rest";

/** One JSON body schema: a response's (per status) or the request's (`status` "request"). */
export interface RestBodySchema {
  operationId: string;
  kind: "response" | "request";
  status: string;
  id: string;
  exportName: string;
  schema: Schema;
}

/**
 * Every `application/json` response body of every operation, sorted by operation then status,
 * then the JSON request bodies (the server validates requests with them).
 */
export function restBodySchemas(models: OperationModel[]): RestBodySchema[] {
  const requests = models.flatMap((model): RestBodySchema[] => {
    const media = model.operation.requestBody?.content["application/json"];
    if (media === undefined) return [];
    return [
      {
        operationId: model.operationId,
        kind: "request",
        status: "request",
        id: `${REST_SCHEMA_BASE}/${model.operationId}/request.json`,
        exportName: `request_${model.operationId}`,
        schema: media.schema,
      },
    ];
  });
  const responses = models.flatMap((model) =>
    model.responses.flatMap(([status, response]): RestBodySchema[] => {
      const media = response.content?.["application/json"];
      if (media === undefined) return [];
      return [
        {
          operationId: model.operationId,
          kind: "response",
          status,
          id: `${REST_SCHEMA_BASE}/${model.operationId}/${status}.json`,
          exportName: `response_${model.operationId}_${status}`,
          schema: media.schema,
        },
      ];
    }),
  );
  return [...responses, ...requests];
}

export function createRestAjv(
  doc: OpenApiDocument,
  models: OperationModel[],
  options: { allErrors: boolean; standalone?: boolean },
): { ajv: Ajv2020; bodies: RestBodySchema[] } {
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
  const bodies = restBodySchemas(models);
  for (const body of bodies) ajv.addSchema({ $id: body.id, ...(toAjvSchema(body.schema) as SchemaObject) });
  return { ajv, bodies };
}
