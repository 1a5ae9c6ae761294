// Seam 1: an AccessGate may decide asynchronously (the Redis gate does). The gateway's
// listeners wait for the decision without losing the request body, refuse as serve does, and
// a gate that fails answers 500 instead of hanging the client.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type Gateway } from "../../src/gateway/startGateway.js";
import type { AccessDecision, AccessGate } from "../../src/server/http/AccessGate.js";
import { startService, type Service } from "../../src/server/startService.js";

let upstream: Service;
let gateway: Gateway;
let next: AccessDecision | "fail" = { kind: "allow" };
const seen: string[] = [];

const slowGate: AccessGate = {
  check: async (req) => {
    seen.push(req.headers.authorization ?? "none");
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (next === "fail") throw new Error("shared store unreachable");
    return next;
  },
};

describe("startGateway with an asynchronous AccessGate", () => {
  beforeAll(async () => {
    upstream = await startService({ host: "127.0.0.1", rpcPort: 0, archivalPort: 0, retention: 100, chain: { blockTimeMs: 0 } });
    gateway = await startGateway({ host: "127.0.0.1", rpcPort: 0, archivalPort: 0, apiPort: 0, upstreams: [upstream.rpcUrl], access: slowGate, probeIntervalMs: 0 });
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  const post = (body: string) => fetch(gateway.rpcUrl, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer k" }, body });

  it("forwards the whole body once the gate allows", async () => {
    next = { kind: "allow" };
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "block", params: { block_id: 0 }, pad: undefined });
    const through = await post(body);
    const direct = await fetch(upstream.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(through.status).toBe(200);
    expect(await through.text()).toBe(await direct.text());
    expect(seen.at(-1)).toBe("Bearer k");
  });

  it("answers the gate's refusals on the JSON-RPC and REST listeners", async () => {
    next = { kind: "rate-limited", retryAfterSec: 7 };
    const rpc = await post('{"jsonrpc":"2.0","id":1,"method":"status","params":[]}');
    expect(rpc.status).toBe(429);
    expect(rpc.headers.get("retry-after")).toBe("7");
    const rest = await fetch(`${gateway.apiUrl}/status`);
    expect(rest.status).toBe(429);
    next = { kind: "unknown-key" };
    const unknown = await post("{}");
    expect(unknown.status).toBe(403);
    expect(await unknown.text()).toBe("Unknown API key");
  });

  it("answers 500 when the gate itself fails", async () => {
    next = "fail";
    const rpc = await post('{"jsonrpc":"2.0","id":1,"method":"status","params":[]}');
    expect(rpc.status).toBe(500);
    const rest = await fetch(`${gateway.apiUrl}/health`);
    expect(rest.status).toBe(500);
  });
});

describe("serve's listeners with an asynchronous AccessGate", () => {
  it("createRpcListener waits for the decision, keeps the body and answers refusals", async () => {
    const { createRpcListener } = await import("../../src/server/http/createRpcListener.js");
    let decision: AccessDecision = { kind: "allow" };
    const server = createRpcListener({
      process: (body) => ({ status: 200, body: `{"echo":${body.toString()}}` }),
      get: async () => ({ status: 200, body: "null" }),
      access: { check: async () => (await new Promise((resolve) => setTimeout(resolve, 10)), decision) },
      maxBodyBytes: 1024,
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
    try {
      const echoed = await fetch(url, { method: "POST", body: '{"a":1}' });
      expect(await echoed.text()).toBe('{"echo":{"a":1}}');
      decision = { kind: "origin-not-allowed" };
      const refused = await fetch(url, { method: "POST", body: '{"a":1}' });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ error: "origin_not_allowed" });
    } finally {
      server.close();
    }
  });
});
