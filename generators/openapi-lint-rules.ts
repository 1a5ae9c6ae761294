// Checks of the assembled REST document: the OpenAPI 3.1 structure and Redocly's
// "recommended" rules (@redocly/openapi-core, which openapi-typescript already depends on),
// then our own rules: documentation, the responses every operation must declare, and every
// example validating against its schema.

import { BaseResolver, Source, createConfig, lintDocument } from "@redocly/openapi-core";
import type { LintResult } from "./lint-rules.js";
import type { OpenApiDocument, OperationModel } from "./openapi-model.js";
import { operationModels } from "./openapi-assemble.js";
import { createRestAjv } from "./rest-ajv.js";
import { toAjvSchema } from "./ajv.js";
import type { SchemaObject } from "./openrpc-model.js";

/** Redocly's structural validation and recommended rules: errors fail, warnings are notes. */
export async function checkOpenApiStructure(doc: OpenApiDocument): Promise<LintResult> {
  const config = await createConfig({ extends: ["recommended"] } as never);
  const problems = await lintDocument({
    document: { source: new Source("openapi.json", JSON.stringify(doc)), parsed: doc } as never,
    config: config.styleguide,
    externalRefResolver: new BaseResolver(),
  });
  const describe = (p: (typeof problems)[number]) =>
    `redocly ${p.ruleId}: ${p.location[0]?.pointer ?? "/"} ${p.message}`;
  return {
    errors: problems.filter((p) => p.severity === "error").map(describe),
    notes: problems.filter((p) => p.severity !== "error").map(describe),
  };
}

/** Statuses every operation declares (the listener produces them for any route). */
const ALWAYS = ["200", "403", "429", "500"];

/** Documentation and the responses each operation must have. */
export function checkOperationShape(model: OperationModel): string[] {
  const where = `operation ${model.operationId} (${model.method.toUpperCase()} ${model.path})`;
  const problems: string[] = [];
  if (!model.operation.summary?.trim()) problems.push(`${where}: missing summary`);
  if (!model.operation.description?.trim()) problems.push(`${where}: missing description`);
  if (!model.operation.tags?.length) problems.push(`${where}: missing tags`);
  const statuses = new Set(model.responses.map(([s]) => s));
  for (const status of ALWAYS) if (!statuses.has(status)) problems.push(`${where}: missing the ${status} response`);
  const templated = [...model.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const declared = model.parameters.filter((p) => p.in === "path").map((p) => p.name);
  for (const name of templated) if (!declared.includes(name)) problems.push(`${where}: path parameter ${name} is not declared`);
  for (const name of declared) if (!templated.includes(name)) problems.push(`${where}: parameter ${name} is not in the path`);
  if (templated.length > 0 && !statuses.has("400")) problems.push(`${where}: has path parameters but no 400 response`);
  const ok = model.responses.find(([s]) => s === "200")?.[1].content?.["application/json"];
  if (ok === undefined) problems.push(`${where}: 200 must have an application/json body`);
  else if (ok.example === undefined && Object.keys(ok.examples ?? {}).length === 0) {
    problems.push(`${where}: the 200 body needs at least one example`);
  }
  for (const [status, response] of model.responses) {
    for (const [mediaType, media] of Object.entries(response.content ?? {})) {
      if (media.example === undefined && Object.keys(media.examples ?? {}).length === 0) {
        problems.push(`${where}: ${status} ${mediaType} needs an example`);
      }
    }
  }
  return problems;
}

/** Every example of every response body and parameter validates against its schema. */
export function checkOpenApiExamples(doc: OpenApiDocument, models: OperationModel[]): string[] {
  const { ajv } = createRestAjv(doc, models, { allErrors: true });
  const problems: string[] = [];
  const check = (where: string, schema: unknown, value: unknown) => {
    const validate = ajv.compile(toAjvSchema(schema as SchemaObject) as SchemaObject);
    if (!validate(value)) problems.push(`${where}: example does not validate: ${ajv.errorsText(validate.errors)}`);
  };
  for (const model of models) {
    for (const [status, response] of model.responses) {
      for (const [mediaType, media] of Object.entries(response.content ?? {})) {
        const where = `operation ${model.operationId} ${status} ${mediaType}`;
        if (media.example !== undefined) check(where, media.schema, media.example);
        for (const [name, example] of Object.entries(media.examples ?? {})) check(`${where} example ${name}`, media.schema, example.value);
      }
    }
    const request = model.operation.requestBody?.content["application/json"];
    if (request?.example !== undefined) check(`operation ${model.operationId} request body`, request.schema, request.example);
    for (const parameter of model.parameters) {
      if (parameter.example !== undefined) check(`operation ${model.operationId} parameter ${parameter.name}`, parameter.schema, parameter.example);
    }
  }
  return problems;
}

export async function lintOpenApi(doc: OpenApiDocument): Promise<LintResult> {
  const structure = await checkOpenApiStructure(doc);
  const models = operationModels(doc);
  const errors = [...structure.errors, ...models.flatMap(checkOperationShape)];
  try {
    errors.push(...checkOpenApiExamples(doc, models));
  } catch (error) {
    errors.push(`schemas do not compile (Ajv strict): ${error instanceof Error ? error.message : String(error)}`);
  }
  const ids = models.map((m) => m.operationId);
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate) errors.push(`operationId ${duplicate} is used twice`);
  return { errors, notes: structure.notes };
}
