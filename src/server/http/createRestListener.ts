import { hash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { restRouteTable, type RestHandlers, type RestOperationId } from "../../../generated/rest/routes.js";
import { IndexUnavailableError } from "../../indexer/IndexUnavailableError.js";
import type { RestContext } from "../rest/RestContext.js";
import { badRequest } from "../rest/historyRequests.js";
import { matchRoute } from "../rest/matchRoute.js";
import { INVALID_ARGUMENT } from "../rest/validArguments.js";
import type { AccessDecision } from "./AccessControl.js";
import { withDecision, type AccessGate } from "./AccessGate.js";
import { sendRefusal } from "./accessReplies.js";
import { drainUnreadBody } from "./drainUnreadBody.js";
import { answerPreflight, corsHeaders } from "./cors.js";
import { isJsonObject } from "@shardkit/primitives/isJsonObject";

/** Bytes of an (unused) request body the REST listener drops before dropping the connection. */
const REST_BODY_DRAIN_BYTES = 64 * 1024;
/** Bytes of a POST body (`/v0` requests are small JSON objects: 20 hashes are under 1 KiB). */
const REST_POST_BODY_BYTES = 64 * 1024;

export interface RestListenerOptions {
  handlers: RestHandlers<RestContext>;
  context: RestContext;
  access: AccessGate;
  /** Receives unexpected handler failures (a bug, never bad input). */
  onInternalError?: (operationId: RestOperationId, error: unknown) => void;
}

const INTERNAL_ERROR_BODY = '"Internal server error"';

/** Body of a 503 while the index cannot be read (the reason stays in the logs and /health: it may name hosts). */
export const INDEX_UNAVAILABLE_TEXT = "The account index is unavailable (its database cannot be reached or holds no block yet); retry later. /health says more.";
/** Seconds a client waits before asking again while the index is unavailable. */
const INDEX_RETRY_AFTER_SEC = 2;

/**
 * The REST listener: auth hook, CORS, then the route table. GET (and HEAD) only; bodies are
 * ignored. 200 answers carry a weak ETag of the rows, `Cache-Control: no-cache` and
 * `X-Block-Height`; a matching If-None-Match gets 304 (with the current block). Unknown paths
 * get 404 with an empty body, as FastNEAR's actix; a route's path with another method gets 405
 * with `Allow: GET, HEAD, OPTIONS`. While the index cannot be read (its database
 * is down) `/v1` answers 503 text/plain with Retry-After, and answers again once it is back.
 */
export function createRestListener(options: RestListenerOptions): Server {
  const server = createServer((req, res) => {
    try {
      handle(req, res, options);
    } catch (error) {
      fail(req, res, error);
    }
  });
  server.keepAliveTimeout = 65_000;
  return server;
}

function jsonHeaders(req: IncomingMessage): string[] {
  return [...corsHeaders(req), "content-type", "application/json"];
}

function fail(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  if (!res.headersSent) send(req, res, 500, jsonHeaders(req), INTERNAL_ERROR_BODY);
  else res.destroy(error instanceof Error ? error : undefined);
}

const noQuery = new URL("http://localhost/");

/**
 * Synchronous unless a handler returns a promise (the in-memory index answers at once): the
 * hot path pays no microtask hops and no URL parse when there is no query string.
 */
function handle(req: IncomingMessage, res: ServerResponse, options: RestListenerOptions): void {
  const target = req.url ?? "/";
  const queryAt = target.indexOf("?");
  let url = noQuery;
  if (queryAt >= 0 || !target.startsWith("/")) {
    try {
      url = new URL(target, "http://localhost");
    } catch {
      drainUnreadBody(req, res, REST_BODY_DRAIN_BYTES);
      return send(req, res, 400, [...corsHeaders(req), "content-type", "text/plain; charset=utf-8"], "Malformed request target");
    }
  }
  const pathname = queryAt >= 0 || url !== noQuery ? url.pathname : target;
  const next = (bodyText: string | undefined) => {
    if (req.method === "OPTIONS") return answerPreflight(res, "GET, HEAD, POST, OPTIONS");
    withDecision(
      options.access,
      req,
      url,
      (decision) => route(req, res, options, pathname, decision, bodyText),
      (error) => fail(req, res, error),
    );
  };
  // The body of a POST to a route that takes one (the `/v0` history operations) is read whole,
  // up to a bound; any other body is never read, only dropped, and only up to a bound.
  const match = req.method === "POST" ? matchRoute("POST", pathname) : undefined;
  if (match?.kind !== "route" || !restRouteTable[match.operationId].hasBody) {
    drainUnreadBody(req, res, REST_BODY_DRAIN_BYTES);
    return next(undefined);
  }
  readBody(req, REST_POST_BODY_BYTES, next, () => {
    res.setHeader("connection", "close");
    send(req, res, 400, jsonHeaders(req), JSON.stringify(badRequest(`the body is larger than ${REST_POST_BODY_BYTES} bytes`).body));
  });
}

/**
 * Reads a body of at most `limitBytes` as UTF-8, or calls `tooLarge` (once) and reads no more
 * (the answer closes the connection).
 */
function readBody(req: IncomingMessage, limitBytes: number, done: (text: string) => void, tooLarge: () => void): void {
  if (Number(req.headers["content-length"]) > limitBytes) return tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  req.on("data", (chunk: Buffer) => {
    if (over) return;
    size += chunk.length;
    if (size > limitBytes) {
      over = true;
      chunks.length = 0;
      tooLarge();
      return;
    }
    chunks.push(chunk);
  });
  req.on("end", () => {
    if (!over) done(Buffer.concat(chunks).toString("utf8"));
  });
}

function route(
  req: IncomingMessage,
  res: ServerResponse,
  options: RestListenerOptions,
  pathname: string,
  decision: AccessDecision,
  bodyText: string | undefined,
): void {
  if (decision.kind !== "allow") return sendRefusal(req, res, decision);
  const method = req.method === "HEAD" ? "GET" : (req.method ?? "");
  const match = matchRoute(method, pathname);
  if (match.kind === "none") return send(req, res, 404, corsHeaders(req), "");
  // A route's path with another method (POST, PUT...): 405 naming the methods it takes, as actix does.
  if (match.kind === "method-not-allowed") return send(req, res, 405, [...corsHeaders(req), "allow", match.allow], "");
  if (match.kind === "bad-parameter") return send(req, res, 400, jsonHeaders(req), JSON.stringify(INVALID_ARGUMENT.body));
  const takesBody = restRouteTable[match.operationId].hasBody;
  let body: unknown;
  if (takesBody) {
    try {
      body = JSON.parse(bodyText ?? "");
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return send(req, res, 400, jsonHeaders(req), JSON.stringify(badRequest(`the body is not JSON: ${reason}`).body));
    }
  }
  const handler = options.handlers[match.operationId] as (
    params: Record<string, string>,
    ctx: RestContext,
    body: unknown,
  ) => { status: number; body: unknown } | Promise<{ status: number; body: unknown }>;
  const failed = (error: unknown) => {
    // An unreachable index is an outage, not a bug: 503, and the next request tries it again.
    if (error instanceof IndexUnavailableError) {
      return send(req, res, 503, [...corsHeaders(req), "content-type", "text/plain; charset=utf-8", "retry-after", String(INDEX_RETRY_AFTER_SEC)], INDEX_UNAVAILABLE_TEXT);
    }
    options.onInternalError?.(match.operationId, error);
    send(req, res, 500, jsonHeaders(req), INTERNAL_ERROR_BODY);
  };
  let reply: { status: number; body: unknown } | Promise<{ status: number; body: unknown }>;
  try {
    reply = handler(match.params, options.context, body);
  } catch (error) {
    return failed(error);
  }
  // `/v0` answers carry no block height to revalidate against: plain JSON, no ETag.
  const reply200 = takesBody ? (r: { status: number; body: unknown }) => send(req, res, r.status, jsonHeaders(req), JSON.stringify(r.body)) : (r: { status: number; body: unknown }) => answer(req, res, r);
  if (reply instanceof Promise) reply.then(reply200, failed);
  else reply200(reply);
}

function answer(req: IncomingMessage, res: ServerResponse, reply: { status: number; body: unknown }): void {
  const body = JSON.stringify(reply.body);
  if (reply.status !== 200) return send(req, res, reply.status, jsonHeaders(req), body);
  const height = String(isJsonObject(reply.body) ? reply.body.block_height : undefined);
  const etag = etagOf(body);
  const caching = ["etag", etag, "cache-control", "no-cache", "x-block-height", height];
  if (ifNoneMatch(req.headers["if-none-match"], etag)) return send(req, res, 304, [...corsHeaders(req), ...caching], "");
  return send(req, res, 200, [...jsonHeaders(req), ...caching], body);
}

/**
 * A weak validator of the body without its top-level `block_height` (the only key spelled
 * `"block_height"` with its opening quote; row fields end in `_block_height`), so it holds
 * across blocks while the rows stay the same.
 */
function etagOf(body: string): string {
  return `W/"${hash("sha256", body.replace(/"block_height":\d+,?/, ""), "base64url").slice(0, 27)}"`;
}

/** RFC 9110 If-None-Match: `*` or a list of (possibly weak) tags compared weakly. */
function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === "*") return true;
  const opaque = etag.replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === opaque);
}

function send(req: IncomingMessage, res: ServerResponse, status: number, headers: string[], body: string): void {
  const length = Buffer.byteLength(body);
  res.writeHead(status, status === 304 ? headers : [...headers, "content-length", String(length)]);
  res.end(req.method === "HEAD" ? undefined : body);
}
