import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { ParseError } from "../errors.js";
import { errorReply, type RpcReply } from "../jsonrpc/processRequest.js";
import { presentedApiKey, type ApiKeys } from "./apiKeys.js";

export interface RpcListenerOptions {
  /** Processes one JSON-RPC request body. */
  process: (body: Buffer) => Promise<RpcReply>;
  /** Answers nearcore's plain GET endpoints (`/status`, `/health`). */
  get: (path: "/status" | "/health") => Promise<RpcReply>;
  apiKeys: ApiKeys;
  maxBodyBytes: number;
}

const rootUrl = new URL("http://localhost/");
const jsonHeaders = { "content-type": "application/json" };
const corsHeaders = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "POST, GET, OPTIONS",
  "access-control-allow-headers": "content-type, authorization",
};

/**
 * A JSON-RPC listener on node:http: POST `/` for JSON-RPC, GET `/status` and `/health`,
 * API-key check before any work, bounded bodies. Every failure is answered, never thrown.
 */
export function createRpcListener(options: RpcListenerOptions): Server {
  const server = createServer((req, res) => {
    handle(req, res, options).catch((error: unknown) => {
      // Last resort: the processor already turns handler failures into JSON-RPC errors.
      if (!res.headersSent) sendText(res, 500, "Internal server error");
      else res.destroy(error as Error);
    });
  });
  server.keepAliveTimeout = 65_000;
  return server;
}

async function handle(req: IncomingMessage, res: ServerResponse, options: RpcListenerOptions): Promise<void> {
  // The JSON-RPC hot path is POST "/" with no query string: skip URL parsing for it.
  const url = req.url === "/" ? rootUrl : new URL(req.url ?? "/", "http://localhost");
  const key = presentedApiKey(req, url);
  if (key !== undefined && !options.apiKeys.has(key)) {
    req.resume();
    return sendText(res, 403, "Unknown API key");
  }
  if (req.method === "OPTIONS") {
    req.resume();
    res.writeHead(204, corsHeaders).end();
    return;
  }
  if (url.pathname === "/" && req.method === "POST") {
    const body = await readBody(req, options.maxBodyBytes);
    if (body === undefined) {
      res.setHeader("connection", "close");
      return sendReply(
        res,
        errorReply(null, new ParseError(`Request body exceeds the ${options.maxBodyBytes}-byte limit`)),
        413,
      );
    }
    return sendReply(res, await options.process(body));
  }
  if ((url.pathname === "/status" || url.pathname === "/health") && req.method === "GET") {
    req.resume();
    return sendReply(res, await options.get(url.pathname));
  }
  req.resume();
  if (url.pathname === "/") return sendText(res, 405, "Use POST for JSON-RPC requests");
  return sendText(res, 404, "Not found");
}

/** Collects the body, or returns undefined (after draining) when it exceeds `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const declared = Number(req.headers["content-length"]);
  if (declared > limit) {
    req.resume();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > limit ? undefined : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function sendReply(res: ServerResponse, reply: RpcReply, status = reply.status): void {
  res.writeHead(status, { ...jsonHeaders, ...corsHeaders, "content-length": Buffer.byteLength(reply.body) });
  res.end(reply.body);
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...corsHeaders, "content-length": Buffer.byteLength(text) });
  res.end(text);
}
