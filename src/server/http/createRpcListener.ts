import type { IncomingMessage, Server } from "node:http";
import type { RpcReply } from "../jsonrpc/processRequest.js";
import type { AccessGate } from "./AccessGate.js";
import { createRpcEntry, failRequest, sendJson } from "./rpcEntry.js";

export interface RpcListenerOptions {
  /** Processes one JSON-RPC request body (synchronously when the handler is synchronous); `req` only identifies the request (request log). */
  process: (body: Buffer, req: IncomingMessage) => RpcReply | Promise<RpcReply>;
  /** Answers nearcore's plain GET endpoints (`/status`, `/health`). */
  get: (path: "/status" | "/health") => Promise<RpcReply>;
  /** Keys, origins and rate caps (shared by every listener). */
  access: AccessGate;
  maxBodyBytes: number;
}

/**
 * `serve`'s JSON-RPC listener: the shared front (rpcEntry.ts) with the chain's own processor
 * behind it. A synchronous handler's reply is written in the same turn as the request's body.
 */
export function createRpcListener(options: RpcListenerOptions): Server {
  return createRpcEntry({
    access: options.access,
    maxBodyBytes: options.maxBodyBytes,
    post(body, req, res) {
      const reply = options.process(body, req);
      if (reply instanceof Promise) reply.then((r) => sendJson(req, res, r.status, r.body), (error: unknown) => failRequest(req, res, error));
      else sendJson(req, res, reply.status, reply.body);
    },
    get(path, req, res) {
      options.get(path).then((r) => sendJson(req, res, r.status, r.body), (error: unknown) => failRequest(req, res, error));
    },
  });
}
