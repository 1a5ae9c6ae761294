// The gateway with an account index (seam 2): REST /v1 is served from the given IndexReader,
// and /status, /health add the upstreams and the follower's lag. The upstream is a real
// in-process `serve`; the index is the in-memory store filled with one block's rows (the
// PostgreSQL store and its follower plug in the same way, see src/gateway/index/).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateRestResponse } from "../../generated/rest/validators.js";
import { startGateway, type Gateway } from "../../src/gateway/startGateway.js";
import type { GatewayIndexStatus } from "../../src/gateway/GatewayIndex.js";
import { MemoryIndexStore } from "../../src/indexer/MemoryIndexStore.js";
import { startService, type Service } from "../../src/server/startService.js";

let upstream: Service;
let gateway: Gateway;
let closedIndex = false;
const follower: { status: GatewayIndexStatus } = { status: { available: true, lastError: null, leader: true, lagBlocks: 0, lagSeconds: 0.5 } };

describe("startGateway with an index", () => {
  beforeAll(async () => {
    upstream = await startService({ host: "127.0.0.1", rpcPort: 0, archivalPort: 0, retention: 100, chain: { blockTimeMs: 0 } });
    const store = new MemoryIndexStore();
    store.apply({
      height: 0,
      timestampNs: 1_763_000_000_000_000_000n,
      accountStates: new Map([["alice.test.near", { balance: "5000", locked: "0", storageBytes: 182 }]]),
      accessKeys: [{ publicKey: "ed25519:8pchsMqQRdU75ZfzgT4qb8xEvS8uqtgXedbumJEkizEp", accountId: "alice.test.near", permission: "full" }],
      ft: [],
      nft: [],
      pools: [],
      balancesRead: true,
    });
    gateway = await startGateway({
      host: "127.0.0.1",
      rpcPort: 0,
      archivalPort: 0,
      apiPort: 0,
      upstreams: [upstream.rpcUrl],
      probeIntervalMs: 100,
      index: {
        reader: store,
        status: () => follower.status,
        close: async () => {
          closedIndex = true;
        },
      },
    });
    while (gateway.regular.headHeight() === null) await new Promise((resolve) => setTimeout(resolve, 50));
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  it("serves REST /v1 from the index", async () => {
    const response = await fetch(`${gateway.apiUrl}/v1/account/alice.test.near/full`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as any;
    expect(body.state).toEqual({ balance: "5000", locked: "0", storage_bytes: 182 });
    expect(validateRestResponse("accountFull", 200, body)).toEqual([]);
  });

  it("reports the follower and the upstreams on /status and /health", async () => {
    const status = (await (await fetch(`${gateway.apiUrl}/status`)).json()) as any;
    expect(status.sync_block_height).toBe(0);
    expect(status.gateway.index).toEqual({ available: true, last_error: null, leader: true, lag_blocks: 0, lag_sec: 0.5 });
    expect(status.gateway.redis).toBeNull();
    expect(status.gateway.upstreams).toEqual([expect.objectContaining({ url: upstream.rpcUrl, up: true, head_height: upstream.chain.head().height })]);
    expect(validateRestResponse("status", 200, status)).toEqual([]);

    follower.status = { available: true, lastError: null, leader: false, lagBlocks: 7, lagSeconds: 7.2 };
    const health = (await (await fetch(`${gateway.apiUrl}/health`)).json()) as any;
    expect(health.gateway.index).toEqual({ available: true, last_error: null, leader: false, lag_blocks: 7, lag_sec: 7.2 });
    expect(health.status).toBe("ok");
    expect(validateRestResponse("health", 200, health)).toEqual([]);
  });

  it("closes the index with the gateway", async () => {
    await gateway.close();
    expect(closedIndex).toBe(true);
  });
});
