import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Upstream, UpstreamPool } from "./UpstreamPool.js";

/** Most bytes of a `/status` answer a probe reads (nearcore's is a few kB with its validators). */
const MAX_STATUS_BYTES = 4 * 1024 * 1024;

/**
 * Asks one node for nearcore's GET /status: an answer marks it up (with its latency and head
 * height), a failure or a slow answer marks it down with the reason. Never rejects.
 */
export function probeUpstream(pool: UpstreamPool, upstream: Upstream, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const started = performance.now();
    const send = upstream.url.protocol === "https:" ? httpsRequest : httpRequest;
    let settled = false;
    const settle = (failure: string | undefined, headHeight?: number) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (failure !== undefined) pool.markDown(upstream, failure);
      else {
        pool.markUp(upstream, performance.now() - started);
        if (headHeight !== undefined) upstream.headHeight = headHeight;
      }
      resolve();
    };
    const out = send(upstream.url, {
      method: "GET",
      path: `${upstream.url.pathname.replace(/\/$/, "")}/status${upstream.url.search}`,
      agent: upstream.agent,
      headers: { accept: "application/json" },
    });
    const timer = setTimeout(() => {
      out.destroy();
      settle(`status probe timed out after ${timeoutMs} ms`);
    }, timeoutMs);
    out.on("error", (error: NodeJS.ErrnoException) => settle(`status probe failed: ${error.code ?? error.message}`));
    out.on("response", (answer) => {
      const chunks: Buffer[] = [];
      let size = 0;
      answer.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_STATUS_BYTES) {
          out.destroy();
          settle("status probe answer too large");
        } else chunks.push(chunk);
      });
      answer.on("error", () => settle("status probe answer cut"));
      answer.on("end", () => {
        if (answer.statusCode !== 200) return settle(`status probe answered HTTP ${answer.statusCode}`);
        settle(undefined, latestHeight(Buffer.concat(chunks)));
      });
    });
    out.end();
  });
}

/** `sync_info.latest_block_height` of a status answer, if it has one. */
function latestHeight(body: Buffer): number | undefined {
  try {
    const status = JSON.parse(body.toString("utf8")) as { sync_info?: { latest_block_height?: unknown } };
    const height = status.sync_info?.latest_block_height;
    return typeof height === "number" && Number.isSafeInteger(height) ? height : undefined;
  } catch {
    return undefined;
  }
}
