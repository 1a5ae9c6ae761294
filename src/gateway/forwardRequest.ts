import { request as httpRequest, type IncomingMessage, type ClientRequest, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import { InternalError, TimeoutError, type RpcError } from "../server/errors.js";
import { errorReply } from "../server/jsonrpc/processRequest.js";
import { corsHeaders } from "../server/http/cors.js";
import type { Upstream, UpstreamPool } from "./UpstreamPool.js";

/** One request to pass on: the client's own bytes, never re-serialized. */
export interface ForwardedRequest {
  readonly method: "POST" | "GET";
  /** "" for JSON-RPC (the upstream URL's own path), "/status" or "/health" for nearcore's GET endpoints. */
  readonly path: "" | "/status" | "/health";
  readonly body: Buffer | undefined;
  /** The JSON-RPC id, for an error answered by the gateway itself. */
  readonly id: unknown;
}

export interface ForwardOptions {
  /** Whole-request budget across failover attempts; past it the client gets TIMEOUT_ERROR. */
  readonly timeoutMs: number;
}

/** Upstream answers that say "this node cannot serve now" (a proxy in front of it, or overload): try another node. */
const UNAVAILABLE_STATUSES = new Set([502, 503, 504]);
const JSON_CONTENT_TYPE = "application/json";
const GET_HEADERS = { accept: JSON_CONTENT_TYPE };

/**
 * Sends a checked request to an upstream node and streams its answer to the client as it
 * arrives (status, content type and body bytes untouched). A node that refuses the connection,
 * drops it before answering or answers 502/503/504 is marked down and the next node is tried;
 * when none is left the client gets nearcore's INTERNAL_ERROR. A node that takes longer than the
 * budget is marked down and the client gets nearcore's TIMEOUT_ERROR (HTTP 408): the request may
 * still be running there, so it is not sent elsewhere. The client never waits past the budget.
 */
export function forwardRequest(pool: UpstreamPool, req: IncomingMessage, res: ServerResponse, forwarded: ForwardedRequest, options: ForwardOptions): void {
  const deadline = performance.now() + options.timeoutMs;
  const tried: Upstream[] = [];
  let clientGone = false;
  let inFlight: ClientRequest | undefined;
  res.once("close", () => {
    if (res.writableFinished) return;
    clientGone = true;
    inFlight?.destroy();
  });

  const attempt = (lastFailure: string | undefined): void => {
    const upstream = pool.pick(tried);
    const remainingMs = deadline - performance.now();
    if (upstream === undefined || remainingMs <= 0) {
      const reason = remainingMs <= 0 ? "Timeout" : `No upstream node answered (${tried.length} tried): ${lastFailure ?? "none configured"}`;
      return answerError(req, res, forwarded.id, remainingMs <= 0 ? new TimeoutError() : new InternalError(reason));
    }
    tried.push(upstream);
    const started = performance.now();
    let timedOut = false;
    let answered = false;
    const send = upstream.url.protocol === "https:" ? httpsRequest : httpRequest;
    const out = send({
      ...upstream.target,
      method: forwarded.method,
      path: forwarded.path === "" ? upstream.rpcPath : endpointPath(upstream.url, forwarded.path),
      headers:
        forwarded.body === undefined
          ? GET_HEADERS
          : { "content-type": JSON_CONTENT_TYPE, accept: JSON_CONTENT_TYPE, "content-length": String(forwarded.body.length) },
    });
    inFlight = out;
    const timer = setTimeout(() => {
      timedOut = true;
      out.destroy();
    }, remainingMs);

    out.on("response", (answer) => {
      const status = answer.statusCode ?? 502;
      if (UNAVAILABLE_STATUSES.has(status) && pool.upstreams.length > tried.length) {
        clearTimeout(timer);
        answer.resume();
        pool.markDown(upstream, `HTTP ${status}`);
        return attempt(`HTTP ${status}`);
      }
      answered = true;
      const headers = [...corsHeaders(req), "content-type", answer.headers["content-type"] ?? JSON_CONTENT_TYPE];
      const length = answer.headers["content-length"];
      if (length !== undefined) headers.push("content-length", length);
      res.writeHead(status, headers);
      answer.pipe(res);
      answer.once("end", () => {
        clearTimeout(timer);
        pool.markUp(upstream, performance.now() - started);
      });
      // The node died or hung mid-body: the status line is out, so the only honest signal left is a cut connection.
      answer.once("aborted", () => res.destroy());
      answer.once("error", () => res.destroy());
    });

    out.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (clientGone) return;
      if (answered) {
        if (timedOut) pool.markDown(upstream, `timed out after ${options.timeoutMs} ms`);
        res.destroy();
        return;
      }
      if (timedOut) {
        pool.markDown(upstream, `timed out after ${options.timeoutMs} ms`);
        return answerError(req, res, forwarded.id, new TimeoutError());
      }
      const reason = describe(error);
      pool.markDown(upstream, reason);
      attempt(reason);
    });
    // As a latin1 string (byte for byte), node:http sends the body in the same write as the
    // request head: one syscall instead of a writev of two buffers.
    if (forwarded.body === undefined) out.end();
    else out.end(forwarded.body.toString("latin1"), "latin1");
  };
  attempt(undefined);
}

/** nearcore's GET endpoint under the upstream URL's path (a provider's key path stays). */
function endpointPath(url: URL, path: "/status" | "/health"): string {
  return `${url.pathname.replace(/\/$/, "")}${path}${url.search}`;
}

/** A short cause without the node's address (the client may be anyone; /status names the nodes). */
function describe(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ECONNRESET":
      return "connection reset before an answer";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "host not found";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "host unreachable";
    case "ETIMEDOUT":
      return "connect timed out";
    default:
      return error.code ?? error.message;
  }
}

/** An error the gateway answers itself, in nearcore's shape (status from the cause catalogue unless given). */
export function answerError(req: IncomingMessage, res: ServerResponse, id: unknown, error: RpcError, status?: number): void {
  if (res.headersSent || res.destroyed) return;
  const reply = errorReply(id, error);
  res.writeHead(status ?? reply.status, [...corsHeaders(req), "content-type", JSON_CONTENT_TYPE, "content-length", String(Buffer.byteLength(reply.body))]);
  res.end(reply.body);
}
