import type { IncomingMessage, ServerResponse } from "node:http";
import type { AccessDecision } from "./AccessControl.js";
import { corsHeaders } from "./cors.js";

const UNKNOWN_KEY_TEXT = "Unknown API key";
const ORIGIN_NOT_ALLOWED_BODY = '{"error":"origin_not_allowed"}';
const RATE_LIMITED_BODY = '{"error":"rate_limited"}';

/**
 * Sends the refusal for a non-"allow" decision (same on every listener). The body never
 * contains the key. The caller drains the request body (bounded: drainUnreadBody).
 */
export function sendRefusal(req: IncomingMessage, res: ServerResponse, decision: Exclude<AccessDecision, { kind: "allow" }>): void {
  const cors = corsHeaders(req);
  switch (decision.kind) {
    case "unknown-key":
      return send(res, 403, [...cors, "content-type", "text/plain; charset=utf-8"], UNKNOWN_KEY_TEXT);
    case "origin-not-allowed":
      return send(res, 403, [...cors, "content-type", "application/json"], ORIGIN_NOT_ALLOWED_BODY);
    case "rate-limited":
      return send(res, 429, [...cors, "content-type", "application/json", "retry-after", String(decision.retryAfterSec)], RATE_LIMITED_BODY);
  }
}

function send(res: ServerResponse, status: number, headers: string[], body: string): void {
  res.writeHead(status, [...headers, "content-length", String(Buffer.byteLength(body))]);
  res.end(body);
}
