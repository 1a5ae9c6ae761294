import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { RestHandlers } from "../../generated/rest/routes.js";
import type { components } from "../../generated/rest/types.js";
import type { Awaitable } from "../indexer/IndexStore.js";
import { withDecision, type AccessGate } from "../server/http/AccessGate.js";
import { sendRefusal } from "../server/http/accessReplies.js";
import { answerPreflight, corsHeaders } from "../server/http/cors.js";
import { drainUnreadBody } from "../server/http/drainUnreadBody.js";
import { restHandlers } from "../server/rest/handlers.js";
import { REST_ALLOW } from "../server/rest/matchRoute.js";
import type { RestContext } from "../server/rest/RestContext.js";
import { thenMaybe } from "../server/rest/thenMaybe.js";
import type { GatewayIndex } from "./GatewayIndex.js";
import type { RedisHealth } from "./redis/RedisAccessGate.js";
import type { UpstreamHealth, UpstreamPool } from "./UpstreamPool.js";

type GatewayHealthBody = components["schemas"]["RestGatewayHealth"];

/** /health's `status` while every regular upstream is down. */
export const NO_UPSTREAM_STATUS = "NoUpstreamAvailable";
/** Body of `/v1` requests to a gateway without an account index (HTTP 503). */
export const NO_INDEX_TEXT = "This gateway serves no account index: REST /v1 needs `shardkit gateway --index --postgres URL`";

export interface GatewayHealthSource {
  readonly regular: UpstreamPool;
  readonly archival: UpstreamPool;
  readonly index: GatewayIndex | undefined;
  /** The Redis of keys and caps (`--redis`), when the gateway uses one. */
  readonly redis?: (() => RedisHealth) | undefined;
}

function upstreamBody(health: UpstreamHealth): GatewayHealthBody["upstreams"][number] {
  return {
    url: health.url,
    up: health.up,
    last_error: health.lastError,
    latency_ms: health.latencyMs === null ? null : Math.round(health.latencyMs * 1000) / 1000,
    head_height: health.headHeight,
  };
}

/** The `gateway` object of /status and /health (spec: RestGatewayHealth). */
export function gatewayHealthBody(source: GatewayHealthSource): Awaitable<GatewayHealthBody> {
  const upstreams = source.regular.health().map(upstreamBody);
  const archival_upstreams = source.archival === source.regular ? [] : source.archival.health().map(upstreamBody);
  const redisHealth = source.redis?.();
  const redis = redisHealth === undefined ? null : { url: redisHealth.url, up: redisHealth.up, last_error: redisHealth.lastError };
  if (source.index === undefined) return { upstreams, archival_upstreams, index: null, redis };
  return thenMaybe(source.index.status(), (status) => ({
    upstreams,
    archival_upstreams,
    index: {
      available: status.available,
      last_error: status.lastError,
      leader: status.leader,
      lag_blocks: status.lagBlocks === null ? null : Math.max(0, status.lagBlocks),
      lag_sec: status.lagSeconds,
    },
    redis,
  }));
}

/** `thenMaybe` for a next step that may itself be pending (flattened, as a promise's `then` does). */
function chain<T, R>(value: Awaitable<T>, next: (value: T) => Awaitable<R>): Awaitable<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

const anyUp = (pool: UpstreamPool) => pool.upstreams.some((upstream) => upstream.up);

/**
 * The REST handlers of a gateway with an index: `serve`'s, with /status and /health adding the
 * `gateway` object (and /health saying NoUpstreamAvailable while every regular upstream is down).
 */
export function gatewayRestHandlers(source: GatewayHealthSource): RestHandlers<RestContext> {
  return {
    ...restHandlers,
    status: (params, ctx) =>
      chain(restHandlers.status(params, ctx), (reply) => thenMaybe(gatewayHealthBody(source), (gateway) => ({ ...reply, body: { ...reply.body, gateway } }))),
    health: (params, ctx) =>
      chain(restHandlers.health(params, ctx), (reply) =>
        thenMaybe(gatewayHealthBody(source), (gateway) => ({
          ...reply,
          body: { ...reply.body, status: anyUp(source.regular) ? reply.body.status : NO_UPSTREAM_STATUS, gateway },
        })),
      ),
  };
}

export interface GatewayStatusListenerOptions {
  source: GatewayHealthSource;
  access: AccessGate;
  version: string;
  onInternalError?: (operationId: string, error: unknown) => void;
}

/** Bytes of an (unused) request body dropped before dropping the connection, as the REST listener. */
const BODY_DRAIN_BYTES = 64 * 1024;

/**
 * The REST listener of a gateway without an account index: /status and /health in the spec's
 * shapes (block_height is the highest upstream head, the sync_* fields null), `/v1` answered
 * 503 with a plain-text reason, anything else 404 with an empty body (as the REST listener).
 */
export function createGatewayStatusListener(options: GatewayStatusListenerOptions): Server {
  const server = createServer((req, res) => {
    drainUnreadBody(req, res, BODY_DRAIN_BYTES);
    if (req.method === "OPTIONS") return answerPreflight(res, "GET, HEAD, OPTIONS");
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://localhost");
    } catch {
      return send(req, res, 400, ["content-type", "text/plain; charset=utf-8"], "Malformed request target");
    }
    const failed = (error: unknown) => {
      options.onInternalError?.(url.pathname, error);
      if (!res.headersSent) send(req, res, 500, ["content-type", "application/json"], '"Internal server error"');
    };
    withDecision(
      options.access,
      req,
      url,
      (decision) => {
        if (decision.kind !== "allow") return sendRefusal(req, res, decision);
        route(req, res, url.pathname, options, failed);
      },
      failed,
    );
  });
  server.keepAliveTimeout = 65_000;
  return server;
}

function route(req: IncomingMessage, res: ServerResponse, pathname: string, options: GatewayStatusListenerOptions, failed: (error: unknown) => void): void {
  const isGet = req.method === "GET" || req.method === "HEAD";
  const isV1 = pathname === "/v1" || pathname.startsWith("/v1/");
  const known = isV1 || pathname === "/status" || pathname === "/health";
  if (known && !isGet) return send(req, res, 405, ["allow", REST_ALLOW], "");
  if (isV1) return send(req, res, 503, ["content-type", "text/plain; charset=utf-8"], NO_INDEX_TEXT);
  if (!known) return send(req, res, 404, [], "");
  const { source } = options;
  const height = source.regular.headHeight() ?? 0;
  const reply = thenMaybe(gatewayHealthBody(source), (gateway) =>
    pathname === "/status"
      ? {
          block_height: height,
          sync_balance_block_height: null,
          sync_block_height: null,
          sync_block_timestamp_nanosec: null,
          sync_latency_sec: null,
          version: options.version,
          gateway,
        }
      : { block_height: height, status: anyUp(source.regular) ? "ok" : NO_UPSTREAM_STATUS, gateway },
  );
  const answer = (body: object) =>
    send(req, res, 200, ["content-type", "application/json", "cache-control", "no-cache", "x-block-height", String(height)], JSON.stringify(body));
  if (reply instanceof Promise) reply.then(answer, failed);
  else answer(reply);
}

function send(req: IncomingMessage, res: ServerResponse, status: number, headers: string[], body: string): void {
  res.writeHead(status, [...corsHeaders(req), ...headers, "content-length", String(Buffer.byteLength(body))]);
  res.end(req.method === "HEAD" ? undefined : body);
}
