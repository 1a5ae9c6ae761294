import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { ParseError } from "../errors.js";
import { errorReply, type RpcReply } from "../jsonrpc/processRequest.js";
import type { AccessDecision } from "./AccessControl.js";
import type { AccessGate } from "./AccessGate.js";
import { sendRefusal } from "./accessReplies.js";
import { drainUnreadBody } from "./drainUnreadBody.js";
import { answerPreflight, corsHeaders } from "./cors.js";

export interface RpcListenerOptions {
  /** Processes one JSON-RPC request body (synchronously when the handler is synchronous); `req` only identifies the request (request log). */
  process: (body: Buffer, req: IncomingMessage) => RpcReply | Promise<RpcReply>;
  /** Answers nearcore's plain GET endpoints (`/status`, `/health`). */
  get: (path: "/status" | "/health") => Promise<RpcReply>;
  /** Keys, origins and rate caps (shared by every listener). */
  access: AccessGate;
  maxBodyBytes: number;
}

const rootUrl = new URL("http://localhost/");
// Flat [name, value, name, value, ...] lists: node:http takes them without per-request objects.
const jsonHeaders = ["content-type", "application/json"];
const textHeaders = ["content-type", "text/plain; charset=utf-8"];

/**
 * A JSON-RPC listener on node:http: POST `/` for JSON-RPC, GET `/status` and `/health`,
 * API-key check before any work, bounded bodies. Every failure is answered, never thrown.
 * The POST path stays callback-based and synchronous when the handler is: it is the hot path.
 */
export function createRpcListener(options: RpcListenerOptions): Server {
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

/** Last resort: the processor already turns handler failures into JSON-RPC errors. */
function fail(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  if (!res.headersSent) sendText(req, res, 500, "Internal server error");
  else res.destroy(error as Error);
}

function handle(req: IncomingMessage, res: ServerResponse, options: RpcListenerOptions): void {
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
  const decision = options.access.check(req, url);
  // A shared gate may answer later (until a reader attaches, the body stays buffered).
  if (decision instanceof Promise) {
    decision.then(
      (settled) => {
        try {
          route(req, res, options, url, settled);
        } catch (error) {
          fail(req, res, error);
        }
      },
      (error: unknown) => {
        req.resume();
        fail(req, res, error);
      },
    );
    return;
  }
  route(req, res, options, url, decision);
}

function route(req: IncomingMessage, res: ServerResponse, options: RpcListenerOptions, url: URL, decision: AccessDecision): void {
  if (decision.kind !== "allow") {
    drainUnreadBody(req, res, drainLimitOf(options.maxBodyBytes));
    return sendRefusal(req, res, decision);
  }
  if (url.pathname === "/" && req.method === "POST") {
    return readBody(req, options.maxBodyBytes, (body) => {
      if (body === undefined) {
        res.setHeader("connection", "close");
        const error = new ParseError(`Request body exceeds the ${options.maxBodyBytes}-byte limit`);
        return sendReply(req, res, errorReply(null, error), 413);
      }
      try {
        const reply = options.process(body, req);
        if (reply instanceof Promise) reply.then((r) => sendReply(req, res, r), (error: unknown) => fail(req, res, error));
        else sendReply(req, res, reply);
      } catch (error) {
        fail(req, res, error);
      }
    });
  }
  req.resume();
  if ((url.pathname === "/status" || url.pathname === "/health") && req.method === "GET") {
    options.get(url.pathname).then((r) => sendReply(req, res, r), (error: unknown) => fail(req, res, error));
    return;
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

/** Bytes of a body the listener reads and drops at most before dropping the connection. */
function drainLimitOf(maxBodyBytes: number): number {
  return 4 * maxBodyBytes;
}

/** Collects the body, or passes undefined (after draining) when it exceeds `limit` bytes. */
export function readBody(req: IncomingMessage, limit: number, done: (body: Buffer | undefined) => void): void {
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
  req.on("end", () => done(size > limit ? undefined : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
}

// CORS headers go only to browsers (requests with an Origin): other clients never read them.
function sendReply(req: IncomingMessage, res: ServerResponse, reply: RpcReply, status = reply.status): void {
  const headers = req.headers.origin === undefined ? jsonHeaders : [...jsonHeaders, ...corsHeaders(req)];
  res.writeHead(status, [...headers, "content-length", String(Buffer.byteLength(reply.body))]);
  res.end(reply.body);
}

function sendText(req: IncomingMessage, res: ServerResponse, status: number, text: string): void {
  const headers = req.headers.origin === undefined ? textHeaders : [...textHeaders, ...corsHeaders(req)];
  res.writeHead(status, [...headers, "content-length", String(Buffer.byteLength(text))]);
  res.end(text);
}
