import { createServer, type Server } from "node:http";
import type { ServiceMetrics } from "./ServiceMetrics.js";

/**
 * The metrics listener, on a port of its own (`--metrics-port`) so it can be left off the load
 * balancer and firewalled to the scraper: GET /metrics in Prometheus text format; anything else
 * 404 (or 405 for another method on /metrics). No API key: bind it where only the scraper reaches.
 */
export function createMetricsListener(metrics: ServiceMetrics): Server {
  return createServer((req, res) => {
    req.resume();
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics") {
      res.writeHead(404, { "content-length": "0" });
      res.end();
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD", "content-length": "0" });
      res.end();
      return;
    }
    metrics.text().then(
      ({ contentType, body }) => {
        res.writeHead(200, { "content-type": contentType, "content-length": Buffer.byteLength(body), "cache-control": "no-cache" });
        res.end(req.method === "HEAD" ? undefined : body);
      },
      (error: unknown) => {
        const text = `metrics failed: ${error instanceof Error ? error.message : String(error)}`;
        res.writeHead(500, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(text) });
        res.end(text);
      },
    );
  });
}
