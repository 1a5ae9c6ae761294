// The gateway when upstreams fail, over real processes: a hung node gets the client nearcore's
// TIMEOUT_ERROR within the budget, a dead one INTERNAL_ERROR; bad requests never reach a node;
// with two nodes, killing one (SIGKILL) loses no request and /status says which one is down.

import { afterAll, describe, expect, it } from "vitest";
import { validateRestResponse } from "../../generated/rest/validators.js";
import { startServe, stop, type CliProcess } from "../cli/cliProcess.js";
import { deadUpstreamUrl, postRpc, rpcBody, startGatewayProcess, startHangingUpstream } from "./gatewayProcess.js";

const started: CliProcess[] = [];
afterAll(async () => {
  for (const proc of started) if (proc.child.exitCode === null && proc.child.signalCode === null) await stop(proc);
});

async function restJson(url: string): Promise<any> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return response.json();
}

describe("shardkit gateway: failing upstreams", () => {
  it("answers TIMEOUT_ERROR (408) within the budget when the upstream hangs, and never forwards a bad request", async () => {
    const hanging = await startHangingUpstream();
    try {
      const gateway = await startGatewayProcess(["--upstream", hanging.url, "--upstream-timeout", "800", "--probe-interval", "0"]);
      started.push(gateway);
      const bad = [rpcBody("block", { finality: "bogus" }), rpcBody("no_such_method", []), "{", rpcBody("query", { request_type: "view_account" })];
      for (const body of bad) expect((await postRpc(gateway.rpcUrl, body)).status).toBeLessThan(500);
      expect(hanging.requests()).toBe(0);

      const began = Date.now();
      const reply = await postRpc(gateway.rpcUrl, rpcBody("block", { finality: "final" }, 41));
      const elapsed = Date.now() - began;
      expect(hanging.requests()).toBe(1);
      expect(reply.status).toBe(408);
      expect(JSON.parse(reply.text)).toEqual({
        jsonrpc: "2.0",
        error: { name: "HANDLER_ERROR", cause: { name: "TIMEOUT_ERROR" }, code: -32000, message: "Server error", data: "Timeout" },
        id: 41,
      });
      expect(elapsed).toBeGreaterThanOrEqual(750);
      expect(elapsed).toBeLessThan(5_000);
      const status = await restJson(`${gateway.apiUrl}/status`);
      expect(status.gateway.upstreams[0]).toMatchObject({ url: hanging.url, up: false, last_error: "timed out after 800 ms" });
      await stop(gateway);
    } finally {
      await hanging.close();
    }
  }, 60_000);

  it("answers INTERNAL_ERROR (500) when the upstream is dead, and /health says no upstream is available", async () => {
    const dead = await deadUpstreamUrl();
    const gateway = await startGatewayProcess(["--upstream", dead, "--probe-interval", "100"]);
    started.push(gateway);
    const reply = await postRpc(gateway.rpcUrl, rpcBody("status", [], "x"));
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.text)).toEqual({
      jsonrpc: "2.0",
      error: {
        name: "INTERNAL_ERROR",
        cause: { name: "INTERNAL_ERROR", info: { error_message: "No upstream node answered (1 tried): connection refused" } },
        code: -32000,
        message: "Server error",
        data: "No upstream node answered (1 tried): connection refused",
      },
      id: "x",
    });
    // Validation still answers locally, with serve's answer.
    const invalid = await postRpc(gateway.rpcUrl, rpcBody("block", { finality: "bogus" }));
    expect(invalid.status).toBe(400);
    expect(JSON.parse(invalid.text).error.cause.name).toBe("PARSE_ERROR");
    const health = await restJson(`${gateway.apiUrl}/health`);
    expect(health.status).toBe("NoUpstreamAvailable");
    expect(health.gateway.upstreams).toEqual([{ url: dead, up: false, last_error: expect.stringMatching(/ECONNREFUSED|connection refused/), latency_ms: null, head_height: null }]);
    expect(validateRestResponse("health", 200, health)).toEqual([]);
    await stop(gateway);
  }, 60_000);

  it("fails over when one of two upstreams is killed, losing no request", async () => {
    // Two dev chains from the same fixed genesis: the same answers for genesis-era reads.
    const first = await startServe(["--block-time", "0"]);
    started.push(first);
    const second = await startServe(["--block-time", "0"]);
    started.push(second);
    const gateway = await startGatewayProcess(["--upstream", first.rpcUrl, "--upstream", second.rpcUrl, "--upstream-retry", "60000", "--probe-interval", "300"]);
    started.push(gateway);
    const body = rpcBody("query", { request_type: "view_account", account_id: "test.near", block_id: 0 });
    const expected = (await postRpc(first.rpcUrl, body)).text;
    expect((await postRpc(second.rpcUrl, body)).text).toBe(expected);
    // Round-robin: both nodes serve (and hold pooled connections) before one dies.
    for (let i = 0; i < 6; i++) expect((await postRpc(gateway.rpcUrl, body)).text).toBe(expected);

    first.child.kill("SIGKILL");
    await first.exited;
    const answers = await Promise.all(Array.from({ length: 12 }, () => postRpc(gateway.rpcUrl, body)));
    for (const answer of answers) expect({ status: answer.status, text: answer.text }).toEqual({ status: 200, text: expected });
    for (let i = 0; i < 6; i++) expect((await postRpc(gateway.rpcUrl, body)).text).toBe(expected);

    const status = await restJson(`${gateway.apiUrl}/status`);
    expect(status.gateway.upstreams).toEqual([
      expect.objectContaining({ url: first.rpcUrl, up: false, last_error: expect.any(String) }),
      expect.objectContaining({ url: second.rpcUrl, up: true }),
    ]);
    await stop(gateway);
    await stop(second);
  }, 120_000);
});
