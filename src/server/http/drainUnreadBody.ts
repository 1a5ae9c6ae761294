import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Reads and drops the body of a request answered without it (a refusal, a GET), so a keep-alive
 * client can read the answer and reuse the connection, but only up to `limitBytes`: a
 * declared length past it closes the connection after the answer without reading the
 * body, and a streamed body that passes it drops the connection.
 */
export function drainUnreadBody(req: IncomingMessage, res: ServerResponse, limitBytes: number): void {
  if (Number(req.headers["content-length"]) > limitBytes) {
    res.setHeader("connection", "close");
    return;
  }
  let size = 0;
  req.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > limitBytes) req.destroy();
  });
  req.resume();
}
