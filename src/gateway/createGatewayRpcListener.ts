import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { ParseError } from "../server/errors.js";
import type { AccessGate } from "../server/http/AccessGate.js";
import { sendRefusal } from "../server/http/accessReplies.js";
import { answerPreflight, corsHeaders } from "../server/http/cors.js";
import { readBody } from "../server/http/createRpcListener.js";
import { drainUnreadBody } from "../server/http/drainUnreadBody.js";
import { checkRequest, isReply, type RpcReply } from "../server/jsonrpc/processRequest.js";
import { answerError, forwardRequest } from "./forwardRequest.js";
import type { UpstreamPool } from "./UpstreamPool.js";

export interface GatewayRpcListenerOptions {
  /** The nodes this listener forwards to (regular or archival). */
  pool: UpstreamPool;
  /** Keys, origins and rate caps (the same gate on every listener). */
  access: AccessGate;
  maxBodyBytes: number;
  maxJsonDepth: number;
  /** Budget of one forwarded request, failover included. */
  timeoutMs: number;
  /** Unexpected failures inside the gateway (a bug, never bad input or a failing upstream). */
  onInternalError?: (method: string, error: unknown) => void;
}

const rootUrl = new URL("http://localhost/");

/**
 * The gateway's JSON-RPC listener: the same auth hook, body bound and request checks as
 * `serve`'s listener (a request `serve` would refuse is answered here, identically, and never
 * reaches an upstream); a valid request's bytes go to an upstream node and its answer streams
 * back. GET /status and /health are passed on too, so tools that read them see the node's answer.
 */
export function createGatewayRpcListener(options: GatewayRpcListenerOptions): Server {
  const server = createServer((req, res) => {
    try {
      handle(req, res, options);
    } catch (error) {
      fail(req, res, error, options);
    }
  });
  server.keepAliveTimeout = 65_000;
  return server;
}

function fail(req: IncomingMessage, res: ServerResponse, error: unknown, options: GatewayRpcListenerOptions): void {
  options.onInternalError?.("gateway", error);
  if (!res.headersSent) sendText(req, res, 500, "Internal server error");
  else res.destroy(error as Error);
}

function handle(req: IncomingMessage, res: ServerResponse, options: GatewayRpcListenerOptions): void {
  const url = req.url === "/" ? rootUrl : parseUrl(req.url);
  if (url === undefined) {
    req.resume();
    return sendText(req, res, 400, "Malformed request target");
  }
  if (req.method === "OPTIONS") {
    req.resume();
    return answerPreflight(res, "POST, GET, OPTIONS");
  }
  const decision = options.access.check(req, url);
  if (decision instanceof Promise) {
    // A shared gate (Redis) answers later; until a reader attaches, the body stays buffered.
    decision.then(
      (settled) => {
        try {
          route(req, res, url, settled.kind === "allow" ? undefined : settled, options);
        } catch (error) {
          fail(req, res, error, options);
        }
      },
      (error: unknown) => {
        req.resume();
        fail(req, res, error, options);
      },
    );
    return;
  }
  route(req, res, url, decision.kind === "allow" ? undefined : decision, options);
}

function route(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  refusal: Parameters<typeof sendRefusal>[2] | undefined,
  options: GatewayRpcListenerOptions,
): void {
  if (refusal !== undefined) {
    drainUnreadBody(req, res, 4 * options.maxBodyBytes);
    return sendRefusal(req, res, refusal);
  }
  if (url.pathname === "/" && req.method === "POST") {
    return readBody(req, options.maxBodyBytes, (body) => {
      if (body === undefined) {
        res.setHeader("connection", "close");
        return answerError(req, res, null, new ParseError(`Request body exceeds the ${options.maxBodyBytes}-byte limit`), 413);
      }
      try {
        const checked = checkRequest(body, options.maxJsonDepth, options.onInternalError);
        if (isReply(checked)) return sendReply(req, res, checked);
        forwardRequest(options.pool, req, res, { method: "POST", path: "", body, id: checked.id }, options);
      } catch (error) {
        fail(req, res, error, options);
      }
    });
  }
  req.resume();
  if ((url.pathname === "/status" || url.pathname === "/health") && req.method === "GET") {
    return forwardRequest(options.pool, req, res, { method: "GET", path: url.pathname, body: undefined, id: null }, options);
  }
  if (url.pathname === "/") return sendText(req, res, 405, "Use POST for JSON-RPC requests");
  return sendText(req, res, 404, "Not found");
}

function parseUrl(target: string | undefined): URL | undefined {
  try {
    return new URL(target ?? "/", "http://localhost");
  } catch {
    return undefined;
  }
}

function sendReply(req: IncomingMessage, res: ServerResponse, reply: RpcReply): void {
  res.writeHead(reply.status, [...corsHeaders(req), "content-type", "application/json", "content-length", String(Buffer.byteLength(reply.body))]);
  res.end(reply.body);
}

function sendText(req: IncomingMessage, res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, [...corsHeaders(req), "content-type", "text/plain; charset=utf-8", "content-length", String(Buffer.byteLength(text))]);
  res.end(text);
}
