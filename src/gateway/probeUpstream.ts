import { errorMessage } from "@shardkit/primitives/errorMessage";
import type { Upstream, UpstreamPool } from "./UpstreamPool.js";

/** Most bytes of a `/status` answer a probe reads (nearcore's is a few kB with its validators). */
const MAX_STATUS_BYTES = 4 * 1024 * 1024;

/**
 * Asks one node for nearcore's GET /status: an answer marks it up (with its latency and head
 * height), a failure or a slow answer marks it down with the reason. Never rejects.
 */
export async function probeUpstream(pool: UpstreamPool, upstream: Upstream, timeoutMs: number): Promise<void> {
  const started = performance.now();
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const headers: Record<string, string> = { accept: "application/json" };
    if (upstream.authorization !== undefined) headers.authorization = upstream.authorization;
    const answer = await upstream.connections.request({
      method: "GET",
      path: `${upstream.url.pathname.replace(/\/$/, "")}/status${upstream.url.search}`,
      headers,
      signal,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const data of answer.body) {
      const chunk = Buffer.isBuffer(data) ? data : Buffer.from(String(data));
      size += chunk.length;
      if (size > MAX_STATUS_BYTES) {
        answer.body.destroy();
        pool.markDown(upstream, "status probe answer too large");
        return;
      }
      chunks.push(chunk);
    }
    if (answer.statusCode !== 200) return pool.markDown(upstream, `status probe answered HTTP ${answer.statusCode}`);
    pool.markUp(upstream, performance.now() - started);
    const height = latestHeight(Buffer.concat(chunks));
    if (height !== undefined) upstream.headHeight = height;
  } catch (error) {
    const code = typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined;
    pool.markDown(upstream, signal.aborted ? `status probe timed out after ${timeoutMs} ms` : `status probe failed: ${code ?? errorMessage(error)}`);
  }
}

/** `sync_info.latest_block_height` of a status answer, if it has one. */
function latestHeight(body: Buffer): number | undefined {
  try {
    const status: unknown = JSON.parse(body.toString("utf8"));
    const syncInfo = typeof status === "object" && status !== null && "sync_info" in status ? status.sync_info : undefined;
    const height = typeof syncInfo === "object" && syncInfo !== null && "latest_block_height" in syncInfo ? syncInfo.latest_block_height : undefined;
    return typeof height === "number" && Number.isSafeInteger(height) ? height : undefined;
  } catch {
    return undefined;
  }
}
