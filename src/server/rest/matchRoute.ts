import { restRouteTable, type RestOperationId, type RestRoute } from "../../../generated/rest/routes.js";

export type RouteMatch =
  | { readonly kind: "route"; readonly operationId: RestOperationId; readonly params: Record<string, string> }
  /** A route matched but a parameter is not valid percent-encoding. */
  | { readonly kind: "bad-parameter"; readonly operationId: RestOperationId }
  /** The path is a route's, the method is not (405 with `Allow`, the methods the path takes). */
  | { readonly kind: "method-not-allowed"; readonly allow: string }
  | { readonly kind: "none" };

/** The `Allow` header of a GET route (HEAD and CORS preflights come with it). */
export const REST_ALLOW = "GET, HEAD, OPTIONS";
/** The `Allow` header of a POST route (the `/v0` transaction history). */
export const REST_POST_ALLOW = "POST, OPTIONS";

const routes: readonly RestRoute[] = Object.values(restRouteTable);

/**
 * Matches a request path against the route table. Path parameters are percent-decoded, so a
 * key may come as `ed25519:…` or `ed25519%3A…` (actix decodes segments the same way).
 */
export function matchRoute(method: string, pathname: string): RouteMatch {
  const parts = pathname.split("/").slice(1);
  let otherMethod: string | undefined;
  for (const route of routes) {
    if (route.segments.length !== parts.length) continue;
    const raw: Record<string, string> = {};
    let matched = true;
    route.segments.forEach((segment, i) => {
      const part = parts[i] ?? "";
      if ("literal" in segment) matched &&= segment.literal === part;
      else raw[segment.param] = part;
    });
    if (!matched) continue;
    if (route.method !== method) {
      otherMethod = route.method === "POST" ? REST_POST_ALLOW : REST_ALLOW;
      continue;
    }
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(raw)) {
      try {
        params[name] = decodeURIComponent(value);
      } catch {
        return { kind: "bad-parameter", operationId: route.operationId };
      }
    }
    return { kind: "route", operationId: route.operationId, params };
  }
  return otherMethod !== undefined ? { kind: "method-not-allowed", allow: otherMethod } : { kind: "none" };
}
