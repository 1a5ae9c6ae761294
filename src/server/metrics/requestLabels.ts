import type { IncomingMessage } from "node:http";
import { pathOnly } from "../log/requestLog.js";
import { matchRoute } from "../rest/matchRoute.js";

/** The label of a request to a JSON-RPC listener that carried no JSON-RPC body: nearcore's GET endpoints, else `other`. */
export function rpcGetLabel(req: IncomingMessage): string {
  const path = pathOnly(req.url);
  return req.method === "GET" && (path === "/status" || path === "/health") ? `GET ${path}` : "other";
}

/** A REST request's metric label: its operation (`accountFull`, `ftTop`...), else `other`. */
export function restRouteLabel(req: IncomingMessage): string {
  const match = matchRoute("GET", pathOnly(req.url));
  return match.kind === "route" || match.kind === "bad-parameter" ? match.operationId : "other";
}
