import type { IncomingMessage } from "node:http";

/** The key a request presents: `Authorization: Bearer <key>` first, else `?apiKey=<key>`. */
export function presentedApiKey(req: IncomingMessage, url: URL): string | undefined {
  const header = req.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    // A malformed Authorization header is treated as an unknown key rather than ignored.
    return match?.[1] ?? header;
  }
  return url.searchParams.get("apiKey") ?? undefined;
}
