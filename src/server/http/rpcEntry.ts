import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { ParseError } from "../errors.js";
import { errorReply } from "../jsonrpc/processRequest.js";
import type { AccessDecision } from "./AccessControl.js";
import { withDecision, type AccessGate } from "./AccessGate.js";
import { sendRefusal } from "./accessReplies.js";
import { answerPreflight, corsHeaders } from "./cors.js";
import { drainUnreadBody } from "./drainUnreadBody.js";

/**
 * What a JSON-RPC listener does with a request once the shared front (below) has let it
 * through: `serve` answers it from the chain, the gateway passes it to an upstream node.
 */
export interface RpcEntryOptions {
  /** Keys, origins and rate caps (shared by every listener). */
  access: AccessGate;
  maxBodyBytes: number;
  /** A POST `/` body within the bound. */
  post(body: Buffer, req: IncomingMessage, res: ServerResponse): void;
  /** GET `/status` or `/health` (nearcore's plain endpoints). */
  get(path: "/status" | "/health", req: IncomingMessage, res: ServerResponse): void;
  /** An unexpected failure (a bug, never bad input), before it is answered 500. */
  onError?: (error: unknown) => void;
}

const rootUrl = new URL("http://localhost/");
// Flat [name, value, name, value, ...] lists: node:http takes them without per-request objects.
const jsonHeaders = ["content-type", "application/json"];
const textHeaders = ["content-type", "text/plain; charset=utf-8"];

/**
 * The front every JSON-RPC listener shares (`serve`'s and the gateway's): POST `/` for
 * JSON-RPC, GET `/status` and `/health`, preflights, the API-key check before any work, bounded
 * bodies (413 past the bound), 400/404/405 for the rest. Every failure is answered, never
 * thrown. The POST path stays callback-based and synchronous when the gate is: it is the hot path.
 */
export function createRpcEntry(options: RpcEntryOptions): Server {
  const server = createServer((req, res) => {
    try {
      handle(req, res, options);
    } catch (error) {
      failRequest(req, res, error, options.onError);
    }
  });
  server.keepAliveTimeout = 65_000;
  return server;
}

/** Last resort: 500 when nothing was sent yet, else a cut connection. */
export function failRequest(req: IncomingMessage, res: ServerResponse, error: unknown, onError?: (error: unknown) => void): void {
  onError?.(error);
  if (!res.headersSent) sendText(req, res, 500, "Internal server error");
  else res.destroy(error instanceof Error ? error : undefined);
}

function handle(req: IncomingMessage, res: ServerResponse, options: RpcEntryOptions): void {
  // The JSON-RPC hot path is POST "/" with no query string: skip URL parsing for it.
  const url = req.url === "/" ? rootUrl : parseUrl(req.url);
  if (url === undefined) {
    req.resume();
    return sendText(req, res, 400, "Malformed request target");
  }
  if (req.method === "OPTIONS") {
    req.resume();
    return answerPreflight(res, "POST, GET, OPTIONS");
  }
  // A shared gate may answer later (until a reader attaches, the body stays buffered).
  withDecision(
    options.access,
    req,
    url,
    (decision) => route(req, res, options, url, decision),
    (error) => {
      req.resume();
      failRequest(req, res, error, options.onError);
    },
  );
}

function route(req: IncomingMessage, res: ServerResponse, options: RpcEntryOptions, url: URL, decision: AccessDecision): void {
  if (decision.kind !== "allow") {
    drainUnreadBody(req, res, drainLimitOf(options.maxBodyBytes));
    return sendRefusal(req, res, decision);
  }
  if (url.pathname === "/" && req.method === "POST") {
    return readBody(req, options.maxBodyBytes, (body) => {
      if (body === undefined) {
        res.setHeader("connection", "close");
        const error = new ParseError(`Request body exceeds the ${options.maxBodyBytes}-byte limit`);
        return sendJson(req, res, 413, errorReply(null, error).body);
      }
      try {
        options.post(body, req, res);
      } catch (error) {
        failRequest(req, res, error, options.onError);
      }
    });
  }
  req.resume();
  if ((url.pathname === "/status" || url.pathname === "/health") && req.method === "GET") return options.get(url.pathname, req, res);
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

/** Bytes of a body the listener reads and drops at most before dropping the connection. */
function drainLimitOf(maxBodyBytes: number): number {
  return 4 * maxBodyBytes;
}

/** Collects the body, or passes undefined (after draining) when it exceeds `limit` bytes. */
function readBody(req: IncomingMessage, limit: number, done: (body: Buffer | undefined) => void): void {
  // An oversized body is drained so the client can read the 413, but only up to a bound:
  // past it the connection is dropped rather than kept reading.
  const drainLimit = drainLimitOf(limit);
  if (Number(req.headers["content-length"]) > drainLimit) {
    // Answered at once; the reply carries `connection: close`, so the socket is not read on.
    done(undefined);
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  req.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
    else if (size > drainLimit) req.destroy();
  });
  // One chunk (the usual small body) is used as it is, not copied.
  req.on("end", () => done(size > limit ? undefined : ((chunks.length === 1 ? chunks[0] : undefined) ?? Buffer.concat(chunks))));
}

// CORS headers go only to browsers (requests with an Origin): other clients never read them.
export function sendJson(req: IncomingMessage, res: ServerResponse, status: number, body: string): void {
  const headers = req.headers.origin === undefined ? jsonHeaders : [...jsonHeaders, ...corsHeaders(req)];
  res.writeHead(status, [...headers, "content-length", String(Buffer.byteLength(body))]);
  res.end(body);
}

export function sendText(req: IncomingMessage, res: ServerResponse, status: number, text: string): void {
  const headers = req.headers.origin === undefined ? textHeaders : [...textHeaders, ...corsHeaders(req)];
  res.writeHead(status, [...headers, "content-length", String(Buffer.byteLength(text))]);
  res.end(text);
}
