// generated/rest/validators.compiled.js (+ .d.ts): Ajv standalone code for every JSON response
// body, minified (emit-compiled-validators.ts).
// generated/rest/validators.ts: typed tables (`restResponseValidators`, `validateRestResponse`).

import type { OpenApiDocument, OperationModel } from "./openapi-model.js";
import { createRestAjv } from "./rest-ajv.js";
import { COMPILED_MODULE, emitCompiledValidators } from "./emit-compiled-validators.js";
import { render } from "./templates.js";

export async function emitRestValidators(
  doc: OpenApiDocument,
  models: OperationModel[],
  banner: string,
): Promise<{ compiled: { js: string; dts: string }; typed: string }> {
  const { ajv, bodies } = createRestAjv(doc, models, { allErrors: false, standalone: true });
  const exportNames = Object.fromEntries(bodies.map((b) => [b.exportName, b.id]));
  const typeOf = Object.fromEntries(
    bodies.map((b) => [
      b.exportName,
      b.kind === "request" ? `RestRequestBody<${JSON.stringify(b.operationId)}>` : `RestJsonBody<${JSON.stringify(b.operationId)}, ${b.status}>`,
    ]),
  );
  const compiled = await emitCompiledValidators(ajv, exportNames, banner, {
    imports: ['import type { RestJsonBody, RestRequestBody } from "./routes.js";'],
    typeOf,
  });
  const operations = models.map((model) => ({
    operationId: model.operationId,
    bodies: bodies
      .filter((b) => b.operationId === model.operationId && b.kind === "response")
      .map((b) => ({ status: b.status, exportName: b.exportName })),
  }));
  const typed = render("rest-validators.ts", {
    banner,
    compiledModule: `./${COMPILED_MODULE}.js`,
    operations,
    requests: bodies.filter((b) => b.kind === "request").map((b) => ({ operationId: b.operationId, exportName: b.exportName })),
  });
  return { compiled, typed };
}
