// An openapi-fetch client on the generated REST types whose every response is checked against
// the spec (status declared, JSON body valid), plus a raw fetch that is checked the same way.

import createClient, { type Middleware } from "openapi-fetch";
import { expect } from "vitest";
import { restRouteTable, type RestOperationId } from "../../generated/rest/routes.js";
import type { paths } from "../../generated/rest/types.js";
import { validateRestResponse } from "../../generated/rest/validators.js";

const byTemplate = new Map<string, RestOperationId>(Object.values(restRouteTable).map((r) => [r.path, r.operationId]));

/** Spec conformance of one response; 304 and 404 (unknown path) have no body to check. */
export async function conformance(operationId: RestOperationId | undefined, response: Response): Promise<string[]> {
  if (response.status === 304 || response.status === 404) return [];
  if (operationId === undefined) return [`no operation for ${response.url}`];
  const type = response.headers.get("content-type") ?? "";
  const text = await response.clone().text();
  if (response.status === 403 && type.startsWith("text/plain")) return [];
  if (!type.startsWith("application/json")) return [`${operationId} ${response.status}: content-type ${type}`];
  return validateRestResponse(operationId, response.status, JSON.parse(text));
}

/** Operation of a concrete request path, by matching the route table. */
export function operationOf(pathname: string): RestOperationId | undefined {
  const parts = pathname.split("/").slice(1);
  return Object.values(restRouteTable).find(
    (r) => r.segments.length === parts.length && r.segments.every((s, i) => !("literal" in s) || s.literal === parts[i]),
  )?.operationId;
}

export function restClient(baseUrl: string, headers: Record<string, string> = {}) {
  const problems: string[] = [];
  const client = createClient<paths>({ baseUrl, headers });
  const validate: Middleware = {
    async onResponse({ response, schemaPath }) {
      problems.push(...(await conformance(byTemplate.get(schemaPath), response)));
      return undefined;
    },
  };
  client.use(validate);
  return {
    client,
    /** Every response so far conformed to the spec. */
    expectConformant: () => expect(problems).toEqual([]),
  };
}

/** A raw GET (for forms openapi-fetch would re-encode), checked against the spec. */
export async function rawGet(url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, init);
  expect(await conformance(operationOf(new URL(url).pathname), response)).toEqual([]);
  return response;
}
