import type { IncomingMessage, Server } from "node:http";
import { performance } from "node:perf_hooks";
import type { LogFields, Logger } from "./Logger.js";
import { isJsonObject } from "@shardkit/primitives/isJsonObject";

/**
 * What a listener learnt about a request while answering it (the JSON-RPC method and error
 * cause), keyed by the request so the request log line can carry it.
 */
export type RequestDetails = WeakMap<IncomingMessage, LogFields>;

/**
 * One debug line per answered request: listener, HTTP method, path, status, duration, plus
 * the details the listener recorded. The query string and headers are never logged (they may
 * carry an API key: `?apiKey=`, `Authorization: Bearer`). Adds nothing when debug is off.
 */
export function logRequests(server: Server, listener: string, logger: Logger, details?: RequestDetails): void {
  if (!logger.enabled("debug")) return;
  server.on("request", (req: IncomingMessage, res) => {
    const started = performance.now();
    res.once("close", () => {
      logger.debug("request", {
        listener,
        http_method: req.method,
        path: pathOnly(req.url),
        status: res.statusCode,
        duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
        ...(res.writableFinished ? {} : { aborted: true }),
        ...details?.get(req),
      });
    });
  });
}

/** The request target without its query string (where `?apiKey=` lives). */
export function pathOnly(target: string | undefined): string {
  if (target === undefined) return "/";
  const query = target.indexOf("?");
  return query < 0 ? target : target.slice(0, query);
}

/** The JSON-RPC method of a request body and the error cause of its reply, for the request log (debug only: parses again). */
export function rpcDetails(body: Buffer, replyBody: string): LogFields {
  let method: string | undefined;
  try {
    const request: unknown = JSON.parse(body.toString("utf8"));
    if (isJsonObject(request) && typeof request.method === "string") method = request.method.slice(0, 100);
  } catch {
    // unparseable bodies are answered with a parse error; the reply says so
  }
  let error: string | undefined;
  if (replyBody.startsWith('{"jsonrpc":"2.0","error"')) {
    try {
      const reply: unknown = JSON.parse(replyBody);
      const replyError = isJsonObject(reply) && isJsonObject(reply.error) ? reply.error : undefined;
      const cause = (isJsonObject(replyError?.cause) ? replyError.cause.name : undefined) ?? replyError?.name;
      if (typeof cause === "string") error = cause;
    } catch {
      error = "unreadable";
    }
  }
  return { rpc_method: method, rpc_error: error };
}
