// Prometheus /metrics on serve and on the gateway (issue 34): a scrape before and after traffic
// shows the counters move by exactly what was sent (requests by listener, method or route and
// status, latency counts, rate-cap refusals, blocks), and the gauges say what the service knows
// (chain head, index, upstream nodes), next to prom-client's process metrics.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type Gateway } from "../../src/gateway/startGateway.js";
import { startService, type Service } from "../../src/server/startService.js";
import { ALICE, BOB, signedTx } from "../chain/runtime/helpers.js";

let service: Service;
let capped: Service;
let gateway: Gateway;

const base = { host: "127.0.0.1", rpcPort: 0, archivalPort: 0, apiPort: 0, metricsPort: 0, retention: 100 } as const;

beforeAll(async () => {
  [service, capped] = await Promise.all([
    startService({ ...base, chain: { blockTimeMs: 0 } }),
    startService({ ...base, publicRatePerMinute: 1, chain: { blockTimeMs: 0 } }),
  ]);
  gateway = await startGateway({ host: "127.0.0.1", rpcPort: 0, archivalPort: 0, apiPort: 0, metricsPort: 0, upstreams: [service.rpcUrl], probeIntervalMs: 100 });
});
afterAll(async () => {
  await gateway?.close();
  await service?.close();
  await capped?.close();
});

async function scrape(url: string | undefined): Promise<string> {
  const response = await fetch(url!);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** The value of the one sample of `name` carrying every given label (0 when there is none yet). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const found = text.split("\n").filter((line) => {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) return false;
    return Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`));
  });
  expect(found.length, `${name} ${JSON.stringify(labels)}:\n${found.join("\n")}`).toBeLessThanOrEqual(1);
  return found.length === 0 ? 0 : Number(found[0]!.slice(found[0]!.lastIndexOf(" ") + 1));
}

const rpc = (url: string, method: string, params: unknown = {}) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) }).then(
    async (r) => (await r.text(), r.status),
  );

describe("GET /metrics", () => {
  it("on serve: requests by listener, method or route and status, latency, blocks, chain and index gauges, process metrics", async () => {
    const before = await scrape(service.metricsUrl);
    for (let i = 0; i < 3; i++) expect(await rpc(service.rpcUrl, "status", [])).toBe(200);
    expect(await rpc(service.rpcUrl, "block", { finality: "final" })).toBe(200);
    expect(await rpc(service.archivalUrl, "block", { finality: "final" })).toBe(200);
    expect(await rpc(service.rpcUrl, "no_such_method")).toBe(400);
    for (let i = 0; i < 2; i++) expect((await fetch(`${service.apiUrl}/v1/account/test.near/full`)).status).toBe(200);
    expect((await fetch(`${service.apiUrl}/v1/nope`)).status).toBe(404);
    service.chain.produceBlock();
    service.chain.produceBlock();
    await service.indexer.whenIndexed(service.chain.head().height);
    const after = await scrape(service.metricsUrl);

    const moved = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
    expect(moved("shardkit_http_requests_total", { listener: "rpc", method: "status", status: "200" })).toBe(3);
    expect(moved("shardkit_http_requests_total", { listener: "rpc", method: "block", status: "200" })).toBe(1);
    expect(moved("shardkit_http_requests_total", { listener: "archival", method: "block", status: "200" })).toBe(1);
    // An unknown method is labelled `other`: callers cannot create new series.
    expect(moved("shardkit_http_requests_total", { listener: "rpc", method: "other", status: "400" })).toBe(1);
    expect(after).not.toContain("no_such_method");
    expect(moved("shardkit_http_requests_total", { listener: "rest", method: "accountFull", status: "200" })).toBe(2);
    expect(moved("shardkit_http_requests_total", { listener: "rest", method: "other", status: "404" })).toBe(1);
    expect(moved("shardkit_http_request_duration_seconds_count", { listener: "rpc", method: "status" })).toBe(3);
    expect(moved("shardkit_blocks_produced_total", {})).toBe(2);
    expect(moved("shardkit_block_production_seconds_count", {})).toBe(2);
    expect(sample(after, "shardkit_block_production_seconds_sum")).toBeGreaterThan(0);
    expect(sample(after, "shardkit_tx_pool_size")).toBe(0);
    expect(sample(after, "shardkit_chain_head_height")).toBe(service.chain.head().height);
    expect(sample(after, "shardkit_index_height")).toBe(service.chain.head().height);
    expect(sample(after, "shardkit_index_lag_blocks")).toBe(0);
    expect(sample(after, "shardkit_process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(after).toMatch(/^# TYPE shardkit_nodejs_eventloop_lag_seconds gauge$/m);
    expect((await fetch(service.metricsUrl!.replace(/\/metrics$/, "/other"))).status).toBe(404);
    // With production stopped, an accepted transaction waits in the pool; a block takes it.
    service.chain.stop();
    service.chain.submitTransaction(signedTx(service.chain, ALICE, BOB, [{ type: "Transfer", deposit: 1n }]));
    expect(sample(await scrape(service.metricsUrl), "shardkit_tx_pool_size")).toBe(1);
    service.chain.produceBlock();
    expect(sample(await scrape(service.metricsUrl), "shardkit_tx_pool_size")).toBe(0);
    service.chain.start();
  });

  it("counts rate-cap refusals (429) per listener", async () => {
    const before = sample(await scrape(capped.metricsUrl), "shardkit_rate_limited_total", { listener: "rpc" });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await rpc(capped.rpcUrl, "status", []));
    expect(statuses).toEqual([200, 429, 429]);
    const after = await scrape(capped.metricsUrl);
    expect(sample(after, "shardkit_rate_limited_total", { listener: "rpc" }) - before).toBe(2);
    // A refusal comes before the body is read: its method is not known (`other`).
    expect(sample(after, "shardkit_http_requests_total", { listener: "rpc", method: "other", status: "429" })).toBe(2);
  });

  it("on the gateway: forwarded requests by method, and every upstream's health", async () => {
    // The gateway's probe has seen the upstream's current head (the serve test above made blocks).
    while (gateway.regular.headHeight() !== service.chain.head().height) await new Promise((resolve) => setTimeout(resolve, 20));
    const before = await scrape(gateway.metricsUrl);
    for (let i = 0; i < 2; i++) expect(await rpc(gateway.rpcUrl, "status", [])).toBe(200);
    const after = await scrape(gateway.metricsUrl);
    const labels = { listener: "rpc", method: "status", status: "200" };
    expect(sample(after, "shardkit_http_requests_total", labels) - sample(before, "shardkit_http_requests_total", labels)).toBe(2);
    const upstream = { pool: "regular", upstream: service.rpcUrl };
    expect(sample(after, "shardkit_upstream_up", upstream)).toBe(1);
    expect(sample(after, "shardkit_upstream_head_height", upstream)).toBe(service.chain.head().height);
    expect(sample(after, "shardkit_upstream_latency_seconds", upstream)).toBeGreaterThan(0);
  });
});
