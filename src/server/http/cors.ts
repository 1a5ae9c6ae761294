import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * CORS headers for browsers (requests with an Origin). `*` is enough and safe: auth is by key
 * (a header or the query), never by cookie, and browser keys are held to their origins by
 * AccessControl, which sees the real Origin. Refusals carry the headers too, so a page can
 * read its 403 and 429 (and their Retry-After).
 */
const BROWSER_HEADERS = ["access-control-allow-origin", "*", "access-control-expose-headers", "etag, retry-after, x-block-height"];

export function corsHeaders(req: IncomingMessage): string[] {
  return req.headers.origin === undefined ? [] : BROWSER_HEADERS;
}

/** Answers a CORS preflight (204) for the methods a listener serves; preflights carry no key. */
export function answerPreflight(res: ServerResponse, methods: string): void {
  res.writeHead(204, [
    "access-control-allow-origin", "*",
    "access-control-allow-methods", methods,
    "access-control-allow-headers", "authorization, content-type, accept, if-none-match",
    "access-control-max-age", "3600",
  ]);
  res.end();
}
