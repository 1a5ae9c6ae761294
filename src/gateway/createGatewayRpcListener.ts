import type { IncomingMessage, Server } from "node:http";
import type { AccessGate } from "../server/http/AccessGate.js";
import { createRpcEntry, sendJson } from "../server/http/rpcEntry.js";
import { checkRequest, isReply } from "../server/jsonrpc/processRequest.js";
import { forwardRequest } from "./forwardRequest.js";
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
  /** Told the JSON-RPC method of each valid request (metrics labels). */
  onMethod?: (req: IncomingMessage, method: string) => void;
}

/**
 * The gateway's JSON-RPC listener: `serve`'s front (rpcEntry.ts: the same auth hook, body bound
 * and answers), then the same request checks as `serve` (a request `serve` would refuse is
 * answered here, identically, and never reaches an upstream); a valid request's bytes go to an
 * upstream node and its answer streams back. GET /status and /health are passed on too, so
 * tools that read them see the node's answer.
 */
export function createGatewayRpcListener(options: GatewayRpcListenerOptions): Server {
  const { onInternalError } = options;
  return createRpcEntry({
    access: options.access,
    maxBodyBytes: options.maxBodyBytes,
    post(body, req, res) {
      const checked = checkRequest(body, options.maxJsonDepth, options.onInternalError);
      if (isReply(checked)) return sendJson(req, res, checked.status, checked.body);
      options.onMethod?.(req, checked.method);
      forwardRequest(options.pool, req, res, { method: "POST", path: "", body, id: checked.id }, options);
    },
    get(path, req, res) {
      forwardRequest(options.pool, req, res, { method: "GET", path, body: undefined, id: null }, options);
    },
    ...(onInternalError !== undefined && { onError: (error: unknown) => onInternalError("gateway", error) }),
  });
}
