import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RpcHandlers } from "../../generated/rpc/methods.js";
import { AccessControl } from "../../src/server/http/AccessControl.js";
import { createRpcListener } from "../../src/server/http/createRpcListener.js";
import { createRpcProcessor } from "../../src/server/jsonrpc/processRequest.js";
import { rpcHandlers } from "../../src/server/rpc/handlers.js";
import type { RpcContext } from "../../src/server/rpc/context.js";
import { post } from "./harness.js";

// A handler that fails by a bug (not by bad input) must answer INTERNAL_ERROR with HTTP 500,
// report the failure, and leave the listener serving.
const reported: string[] = [];
const handlers: RpcHandlers<RpcContext> = {
  ...rpcHandlers,
  health: () => {
    throw new TypeError("boom");
  },
  gas_price: async () => {
    throw new RangeError("async boom");
  },
};
const server = createRpcListener({
  process: createRpcProcessor({
    handlers,
    context: {} as RpcContext,
    maxJsonDepth: 64,
    onInternalError: (method, error) => reported.push(`${method}: ${String(error)}`),
  }),
  get: () => Promise.reject(new Error("unused")),
  access: AccessControl.open(),
  maxBodyBytes: 1024,
});
let url: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("internal errors", () => {
  it.each([
    ["health", "boom", "TypeError: boom"],
    ["gas_price", "async boom", "RangeError: async boom"],
  ])("answers a failing %s handler with INTERNAL_ERROR and HTTP 500", async (method, message, report) => {
    const reply = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 9, method, params: {} }));
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.text)).toEqual({
      jsonrpc: "2.0",
      id: 9,
      error: {
        name: "INTERNAL_ERROR",
        cause: { name: "INTERNAL_ERROR", info: { error_message: message } },
        code: -32000,
        message: "Server error",
        data: message,
      },
    });
    expect(reported).toContain(`${method}: ${report}`);
    const status = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "no_such", params: {} }));
    expect(status.status).toBe(400);
  });
});
