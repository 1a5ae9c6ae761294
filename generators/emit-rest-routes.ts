// generated/rest/routes.ts: operation ids, the handler interface and the route table.
// Handlers answer the statuses an operation declares with a JSON body, except those the HTTP
// layer owns (403 keys and origins, 429 rate caps, 500 failures, 304 revalidation).

import type { OperationModel } from "./openapi-model.js";
import { render } from "./templates.js";

/** Statuses produced by the listener, never by a handler. */
export const LISTENER_STATUSES = new Set(["304", "403", "429", "500"]);

export function emitRestRoutes(models: OperationModel[], banner: string): string {
  const operations = models.map((model) => {
    const segments = model.path
      .split("/")
      .slice(1)
      .map((part) => {
        const param = /^\{([^}]+)\}$/.exec(part)?.[1];
        return param === undefined ? { literal: part } : { param };
      });
    const pathParams = model.parameters.filter((p) => p.in === "path").map((p) => p.name);
    const handlerStatuses = model.responses
      .filter(([status, r]) => !LISTENER_STATUSES.has(status) && r.content?.["application/json"] !== undefined)
      .map(([status]) => status);
    return {
      operationId: model.operationId,
      method: model.method.toUpperCase(),
      path: model.path,
      summary: model.operation.summary ?? "",
      segments,
      pathParams,
      handlerStatuses,
      hasBody: model.operation.requestBody?.content["application/json"] !== undefined,
    };
  });
  return render("rest-routes.ts", { banner, operations });
}
