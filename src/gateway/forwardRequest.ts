import { ShardkitError } from "@shardkit/primitives/ShardkitError";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Dispatcher } from "undici";
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

/** Why an attempt was cut short by the gateway itself. */
class AttemptTimedOut extends ShardkitError<"ATTEMPT_TIMED_OUT"> {
  override readonly name = "AttemptTimedOut";
  constructor() {
    super("ATTEMPT_TIMED_OUT", "the upstream attempt timed out");
  }
}
class ClientGone extends ShardkitError<"CLIENT_GONE"> {
  override readonly name = "ClientGone";
  constructor() {
    super("CLIENT_GONE", "the client went away");
  }
}

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
  let current: Dispatcher.DispatchController | undefined;
  res.once("close", () => {
    if (!res.writableFinished) current?.abort(new ClientGone());
  });

  const attempt = (lastFailure: string | undefined): void => {
    const upstream = pool.pick(tried);
    const remainingMs = deadline - performance.now();
    if (remainingMs <= 0) return answerError(req, res, forwarded.id, new TimeoutError());
    if (upstream === undefined) {
      return answerError(req, res, forwarded.id, new InternalError(`No upstream node answered (${tried.length} tried): ${lastFailure ?? "none configured"}`));
    }
    tried.push(upstream);
    const started = performance.now();
    let answered = false;
    let retrying = false;
    let controller: Dispatcher.DispatchController | undefined;
    const timer = setTimeout(() => {
      if (controller !== undefined) return controller.abort(new AttemptTimedOut());
      // Not even handed to a connection yet (the pool is saturated): answer now all the same.
      pool.markDown(upstream, `timed out after ${options.timeoutMs} ms`);
      answerError(req, res, forwarded.id, new TimeoutError());
    }, remainingMs);

    const headers: Record<string, string> =
      forwarded.body === undefined ? { accept: JSON_CONTENT_TYPE } : { "content-type": JSON_CONTENT_TYPE, accept: JSON_CONTENT_TYPE };
    if (upstream.authorization !== undefined) headers.authorization = upstream.authorization;
    upstream.connections.dispatch(
      {
        method: forwarded.method,
        path: forwarded.path === "" ? upstream.rpcPath : endpointPath(upstream.url, forwarded.path),
        headers,
        body: forwarded.body ?? null,
      },
      {
        onRequestStart(started) {
          controller = started;
          current = started;
          if (res.destroyed) started.abort(new ClientGone());
        },
        onResponseStart(ctl, status, answerHeaders) {
          if (UNAVAILABLE_STATUSES.has(status) && pool.upstreams.length > tried.length) {
            retrying = true;
            ctl.abort(new Error(`HTTP ${status}`));
            return;
          }
          answered = true;
          const out = [...corsHeaders(req), "content-type", headerText(answerHeaders["content-type"]) ?? JSON_CONTENT_TYPE];
          const length = headerText(answerHeaders["content-length"]);
          if (length !== undefined) out.push("content-length", length);
          res.writeHead(status, out);
        },
        onResponseData(ctl, chunk) {
          // Backpressure: a slow client pauses the upstream read instead of buffering the answer.
          if (!res.write(chunk)) {
            ctl.pause();
            res.once("drain", () => ctl.resume());
          }
        },
        onResponseEnd() {
          clearTimeout(timer);
          pool.markUp(upstream, performance.now() - started);
          res.end();
        },
        onResponseError(_ctl, error) {
          clearTimeout(timer);
          if (error instanceof ClientGone) return;
          if (retrying) {
            pool.markDown(upstream, error.message);
            return attempt(error.message);
          }
          const timedOut = error instanceof AttemptTimedOut;
          const reason = timedOut ? `timed out after ${options.timeoutMs} ms` : describe(error);
          pool.markDown(upstream, reason);
          // The status line is out: the only honest signal left is a cut connection.
          if (answered) return void res.destroy();
          if (timedOut) return answerError(req, res, forwarded.id, new TimeoutError());
          attempt(reason);
        },
      },
    );
  };
  attempt(undefined);
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** nearcore's GET endpoint under the upstream URL's path (a provider's key path stays). */
function endpointPath(url: URL, path: "/status" | "/health"): string {
  return `${url.pathname.replace(/\/$/, "")}${path}${url.search}`;
}

/** A short cause without the node's address (the client may be anyone; /status names the nodes). */
function describe(error: Error & { code?: string }): string {
  switch (error.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ECONNRESET":
    case "UND_ERR_SOCKET":
      return "connection closed before an answer";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "host not found";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "host unreachable";
    case "ETIMEDOUT":
    case "UND_ERR_CONNECT_TIMEOUT":
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
