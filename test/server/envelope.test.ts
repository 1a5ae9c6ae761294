import { request } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Service } from "../../src/server/startService.js";
import { post, rpc, rpcError, rpcResult, startTestService } from "./harness.js";

let service: Service;
beforeAll(async () => {
  service = await startTestService({ maxBodyBytes: 64 * 1024, maxJsonDepth: 16 });
});
afterAll(() => service.close());

const parseError = (message: string) => ({
  name: "REQUEST_VALIDATION_ERROR",
  cause: { name: "PARSE_ERROR", info: { error_message: message } },
  code: -32700,
  message: "Parse error",
  data: message,
});

describe("JSON-RPC envelope", () => {
  it("echoes string and number ids as sent", async () => {
    expect((await rpc(service.rpcUrl, "health", null, "dontcare")).body).toEqual({ jsonrpc: "2.0", result: null, id: "dontcare" });
    expect((await rpc(service.rpcUrl, "health", null, 7)).body).toEqual({ jsonrpc: "2.0", result: null, id: 7 });
    expect((await rpc(service.rpcUrl, "health", [], { a: 1 })).body.id).toEqual({ a: 1 });
  });

  it.each([
    ["malformed JSON", '{"jsonrpc":"2.0",', /^Invalid JSON: /],
    ["a batch", '[{"jsonrpc":"2.0","id":1,"method":"health"}]', /^JSON RPC Request format was expected$/],
    ["a notification (no id)", '{"jsonrpc":"2.0","method":"health"}', /^JSON RPC Request format was expected$/],
    ["jsonrpc 1.0", '{"jsonrpc":"1.0","id":1,"method":"health"}', /^JSON RPC Request format was expected$/],
    ["an unknown envelope field", '{"jsonrpc":"2.0","id":1,"method":"health","extra":1}', /^JSON RPC Request format was expected$/],
    ["a non-string method", '{"jsonrpc":"2.0","id":1,"method":5}', /^JSON RPC Request format was expected$/],
    ["a bare string", '"hello"', /^JSON RPC Request format was expected$/],
  ])("answers %s with PARSE_ERROR, HTTP 400 and id null", async (_name, body, message) => {
    const reply = await post(service.rpcUrl, body);
    expect(reply.status).toBe(400);
    const parsed = JSON.parse(reply.text);
    expect(parsed.id).toBeNull();
    expect(parsed.error).toMatchObject({ name: "REQUEST_VALIDATION_ERROR", code: -32700, message: "Parse error", cause: { name: "PARSE_ERROR" } });
    expect(parsed.error.data).toMatch(message);
  });

  it("answers an unknown method with METHOD_NOT_FOUND -32601 and HTTP 400", async () => {
    const reply = await rpc(service.rpcUrl, "no_such_method", {}, 42);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      jsonrpc: "2.0",
      id: 42,
      error: {
        name: "REQUEST_VALIDATION_ERROR",
        cause: { name: "METHOD_NOT_FOUND", info: { method_name: "no_such_method" } },
        code: -32601,
        message: "Method not found",
        data: "no_such_method",
      },
    });
  });

  it.each([
    ["a wrong type", "block", { block_id: true }, undefined],
    ["two block references", "block", { finality: "final", block_id: 1 }, undefined],
    ["no block reference", "block", {}, "Failed parsing args: missing field: one of `finality`, `block_id`, `sync_checkpoint` in params"],
    ["a bad finality", "block", { finality: "latest" }, undefined],
    ["params as a string", "block", "final", undefined],
    ["too many positional params", "block", [1, 2], undefined],
    ["a positional array for query", "query", ["a", "b", "c"], undefined],
    ["a negative block height", "block", { block_id: -1 }, "Failed parsing args: params/block_id must be >= 0"],
    ["a boolean block id", "block", { block_id: true }, undefined],
    ["a block id that is no hash", "block", { block_id: "not-a-hash" }, 'Failed parsing args: params/block_id must be a base58 hash (32 bytes), got "not-a-hash"'],
    ["a fractional block height", "block", { block_id: 1.5 }, "Failed parsing args: params/block_id must be integer"],
    ["a shard id beyond u64", "chunk", { block_id: 0, shard_id: 1e30 }, "Failed parsing args: invalid type: floating point `1000000000000000000000000000000.0`, expected u64"],
    ["a negative shard id", "chunk", { block_id: 0, shard_id: -1 }, "Failed parsing args: invalid value: integer `-1`, expected u64"],
    ["a fractional shard id", "chunk", { block_id: 0, shard_id: 1.5 }, "Failed parsing args: invalid type: floating point `1.5`, expected u64"],
    ["a height beyond 2^53", "block", { block_id: 2 ** 64 }, "Failed parsing args: params/block_id must be <= 9007199254740991"],
  ])("rejects %s in params with PARSE_ERROR", async (_name, method, params, message) => {
    const { status, error } = await rpcError(service.rpcUrl, method, params);
    expect(status).toBe(400);
    expect(error).toMatchObject({ name: "REQUEST_VALIDATION_ERROR", code: -32700, cause: { name: "PARSE_ERROR" } });
    expect(error.data).toMatch(/^Failed parsing args: /);
    if (message !== undefined) expect(error).toEqual(parseError(message));
    expect(error.data).not.toMatch(/missing field `finality`/);
  });

  it("refuses an oversized body with 413 and keeps serving", async () => {
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "health", params: { pad: "x".repeat(70 * 1024) } });
    const reply = await post(service.rpcUrl, big);
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.text).error).toEqual(parseError("Request body exceeds the 65536-byte limit"));
    expect(await rpcResult(service.rpcUrl, "health", null)).toBeNull();
  });

  it("answers a huge declared body at once, without reading it", async () => {
    const reply = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(service.rpcUrl, { method: "POST", headers: { "content-type": "application/json", "content-length": String(1 << 30) } }, (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on("error", reject);
      req.write("{");
    });
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body).error.cause.name).toBe("PARSE_ERROR");
    expect(await rpcResult(service.rpcUrl, "health", null)).toBeNull();
  });

  it("answers a malformed request target with 400", async () => {
    const { port } = new URL(service.rpcUrl);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1", () => socket.end("GET http://[bad HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
      let text = "";
      socket.on("data", (chunk) => (text += chunk.toString()));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect(await rpcResult(service.rpcUrl, "health", null)).toBeNull();
  });

  it("refuses deep nesting with a clear error and keeps serving", async () => {
    const deep = `{"jsonrpc":"2.0","id":1,"method":"health","params":${"[".repeat(5000)}${"]".repeat(5000)}}`;
    const reply = await post(service.rpcUrl, deep);
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.text).error).toEqual(parseError("JSON nesting deeper than 16 levels is not accepted"));
    // Brackets inside strings do not count.
    const quoted = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "health", params: { s: "[".repeat(100) } });
    expect((await post(service.rpcUrl, quoted)).status).not.toBe(500);
    expect(await rpcResult(service.rpcUrl, "health", null)).toBeNull();
  });

  it("serves nearcore's GET /status and /health and refuses other routes", async () => {
    const statusReply = await fetch(`${service.rpcUrl}/status`);
    expect(statusReply.status).toBe(200);
    expect(((await statusReply.json()) as { chain_id: string }).chain_id).toBe(service.chain.chainId);
    const healthReply = await fetch(`${service.rpcUrl}/health`);
    expect(healthReply.status).toBe(200);
    expect(await healthReply.text()).toBe("null");
    expect((await fetch(`${service.rpcUrl}/nope`)).status).toBe(404);
    expect((await fetch(`${service.rpcUrl}/`)).status).toBe(405);
  });

  it("answers CORS preflight requests and sends CORS headers to browsers", async () => {
    const preflight = await fetch(`${service.rpcUrl}/`, { method: "OPTIONS" });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "health", params: [] });
    const fromBrowser = await fetch(`${service.rpcUrl}/`, { method: "POST", body, headers: { origin: "https://app.example" } });
    expect(fromBrowser.headers.get("access-control-allow-origin")).toBe("*");
    const fromServer = await fetch(`${service.rpcUrl}/`, { method: "POST", body });
    expect(fromServer.headers.get("access-control-allow-origin")).toBeNull();
  });
});
