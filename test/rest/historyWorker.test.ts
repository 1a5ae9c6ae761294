// The history index of a data dir is built by a worker thread: a failure there is an error
// line and a 503 on `/v0` (never a hang of whoever waits for the index, never the server
// down), and closing the service ends the worker.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WorkerHistoryIndexer } from "../../src/indexer/history/WorkerHistoryIndexer.js";
import { createLogger } from "../../src/server/log/Logger.js";
import type { Service } from "../../src/server/startService.js";
import { rpcResult, startTestService } from "../server/harness.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(overrides: Parameters<typeof startTestService>[0] = {}): Promise<{ service: Service; lines: string[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), "shardkit-history-worker-"));
  dirs.push(dataDir);
  const lines: string[] = [];
  const logger = createLogger({ level: "error", format: "json", write: (line) => lines.push(line) });
  const service = await startTestService({ apiPort: 0, chain: { dataDir }, logger, ...overrides });
  return { service, lines };
}

async function v0Blocks(service: Service): Promise<Response> {
  return fetch(`${service.apiUrl}/v0/blocks`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ limit: 1 }) });
}

describe("the history worker", () => {
  it("reports a failure as an error line and 503, and rejects waiters instead of leaving them waiting", async () => {
    const failAt = 3;
    const { service, lines } = await start({ historyWorkerFailAt: failAt });
    try {
      service.chain.stop();
      expect(service.chain.head().height).toBeLessThan(failAt);
      while (service.chain.head().height < failAt + 1) service.chain.produceBlock();
      await expect(service.historyIndexer.whenIndexed(failAt)).rejects.toThrow(`injected failure at block ${failAt}`);
      // Later waits fail at once too.
      await expect(service.historyIndexer.whenIndexed(failAt + 1)).rejects.toThrow(`injected failure at block ${failAt}`);
      const response = await v0Blocks(service);
      expect(response.status).toBe(503);
      const logged = lines.map((line) => JSON.parse(line) as { level: string; msg: string; error?: string });
      expect(logged).toContainEqual(expect.objectContaining({ level: "error", msg: expect.stringContaining("history index stopped"), error: `injected failure at block ${failAt}` }));
      // The rest of the service goes on: blocks are produced and served.
      const height = service.chain.produceBlock().height;
      const block = (await rpcResult(service.rpcUrl, "block", { finality: "optimistic" })) as { header: { height: number } };
      expect(block.header.height).toBe(height);
    } finally {
      await service.close();
    }
    expect((service.historyIndexer as WorkerHistoryIndexer).workerRunning).toBe(false);
  });

  it("ends with the service that started it", async () => {
    const { service } = await start();
    const indexer = service.historyIndexer;
    expect(indexer).toBeInstanceOf(WorkerHistoryIndexer);
    await indexer.whenIndexed(service.chain.head().height);
    expect((await v0Blocks(service)).status).toBe(200);
    expect((indexer as WorkerHistoryIndexer).workerRunning).toBe(true);
    await service.close();
    expect((indexer as WorkerHistoryIndexer).workerRunning).toBe(false);
  });
});
