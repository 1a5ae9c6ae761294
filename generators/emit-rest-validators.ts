// generated/rest/validators.compiled.ts: Ajv standalone code for every JSON response body.
// generated/rest/validators.ts: typed tables (`restResponseValidators`, `validateRestResponse`).

import standaloneModule from "ajv/dist/standalone/index.js";
import type { OpenApiDocument, OperationModel } from "./openapi-model.js";
import { createRestAjv } from "./rest-ajv.js";
import { esmFromStandalone } from "./emit-validators.js";
import { render } from "./templates.js";

const standaloneCode = standaloneModule.default;

export const REST_COMPILED_MODULE = "validators.compiled";

export function emitRestValidators(
  doc: OpenApiDocument,
  models: OperationModel[],
  banner: string,
): { compiled: string; typed: string } {
  const { ajv, bodies } = createRestAjv(doc, models, { allErrors: false, standalone: true });
  const exportNames = Object.fromEntries(bodies.map((b) => [b.exportName, b.id]));
  const { imports, bindings, body } = esmFromStandalone(standaloneCode(ajv, exportNames));
  const compiled = render("validators.compiled.ts", { banner, imports, bindings, body });
  const operations = models.map((model) => ({
    operationId: model.operationId,
    bodies: bodies
      .filter((b) => b.operationId === model.operationId)
      .map((b) => ({ status: b.status, exportName: b.exportName })),
  }));
  const typed = render("rest-validators.ts", {
    banner,
    compiledModule: `./${REST_COMPILED_MODULE}.js`,
    operations,
  });
  return { compiled, typed };
}
