// UpstreamPool.call: the JSON-RPC calls the gateway's index follower makes over the pool it
// forwards over, against a real in-process service and a port nothing listens on: failover to a
// node that answers, the pool's health updated by the calls, an RPC error passed on as it is.

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { RpcResponseError } from "@shardkit/client/jsonrpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UpstreamPool } from "../../src/gateway/UpstreamPool.js";
import { callUpstream } from "../../src/indexer/upstream/UpstreamRpc.js";
import type { Service } from "../../src/server/startService.js";
import { startTestService } from "../server/harness.js";

let service: Service;
let deadUrl: string;

beforeAll(async () => {
  service = await startTestService();
  const dead = createServer();
  await new Promise<void>((resolve) => dead.listen(0, "127.0.0.1", resolve));
  deadUrl = `http://127.0.0.1:${(dead.address() as AddressInfo).port}`;
  await new Promise((resolve) => dead.close(resolve));
}, 60_000);

afterAll(async () => {
  await service?.close();
});

describe("UpstreamPool.call", () => {
  it("fails over from a node that refuses the connection, and both nodes' health says what the calls saw", async () => {
    const pool = new UpstreamPool([new URL(deadUrl), new URL(service.rpcUrl)], { retryAfterMs: 60_000, maxSockets: 2 });
    try {
      const call = pool.call(5_000);
      const block = await callUpstream(call, "block", { finality: "final" });
      expect(block.header.height).toBe(Math.max(service.chain.genesisBlock.height, service.chain.head().height - 2));
      const [dead, live] = pool.health();
      expect(dead).toMatchObject({ up: false, lastError: "index follower's block failed: ECONNREFUSED", latencyMs: null });
      expect(live).toMatchObject({ up: true, lastError: null });
      expect(live?.latencyMs).toBeGreaterThan(0);
      // The dead node is passed over until its retry time: the next call goes to the live one at once.
      expect((await callUpstream(call, "block", { block_id: block.header.height })).header.hash).toBe(block.header.hash);
    } finally {
      await pool.close();
    }
  });

  it("passes an RPC error on as the client's typed error, without marking the node down", async () => {
    const pool = new UpstreamPool([new URL(service.rpcUrl)], { retryAfterMs: 60_000, maxSockets: 1 });
    try {
      const failed = await pool.call(5_000)("block", { block_id: 1_000_000_000 }).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(RpcResponseError);
      expect(failed).toMatchObject({ causeName: "UNKNOWN_BLOCK" });
      expect(pool.health()[0]).toMatchObject({ up: true, lastError: null });
    } finally {
      await pool.close();
    }
  });
});
