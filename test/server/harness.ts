import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { rpcErrorCauses, type RpcErrorCauseName } from "../../generated/rpc/errors.js";
import { rpcMethodTable, type RpcMethodName } from "../../generated/rpc/methods.js";
import { validateErrorInfo, validateResult } from "../../generated/rpc/validators.js";
import { startService, type Service, type ServiceOptions } from "../../src/server/startService.js";

/** Unexpected handler failures (bugs): every call checks that none happened. */
const internalErrors: string[] = [];

/** `SHARDKIT_TEST_STORE=disk` runs every service of the suite on an on-disk chain store (a fresh data dir each). */
const onDisk = process.env.SHARDKIT_TEST_STORE === "disk";
function testDataDir(): { dataDir?: string } {
  return onDisk ? { dataDir: mkdtempSync(join(tmpdir(), "shardkit-it-")) } : {};
}

/** Starts the service on free loopback ports with on-demand blocks (deterministic tests). */
export async function startTestService(overrides: Partial<ServiceOptions> = {}): Promise<Service> {
  const store = testDataDir();
  const service = await startService({
    host: "127.0.0.1",
    rpcPort: 0,
    archivalPort: 0,
    retention: 1000,
    ...overrides,
    chain: { blockTimeMs: 0, ...store, ...overrides.chain },
    onInternalError: (method, error) => {
      internalErrors.push(`${method}: ${String(error)}`);
    },
  });
  if (store.dataDir === undefined) return service;
  const dir = store.dataDir;
  const close = service.close;
  // Replaced in place: a copy would freeze the getters (the indexers are new after a revert).
  service.close = async () => (await close(), rmSync(dir, { recursive: true, force: true }));
  return service;
}

export interface HttpReply {
  status: number;
  contentType: string | null;
  text: string;
}

/** POSTs a raw body and returns status, content type and text. */
export async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<HttpReply> {
  const response = await fetch(url, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
  return { status: response.status, contentType: response.headers.get("content-type"), text: await response.text() };
}

export interface RpcReply {
  status: number;
  body: { jsonrpc: string; id: unknown; result?: any; error?: any };
}

/** One JSON-RPC call; successful results are checked against the spec's result schema. */
export async function rpc(url: string, method: string, params: unknown, id: unknown = "dontcare"): Promise<RpcReply> {
  const reply = await post(url, JSON.stringify({ jsonrpc: "2.0", id, method, params }));
  expect(reply.contentType).toBe("application/json");
  const body = JSON.parse(reply.text) as RpcReply["body"];
  expect(internalErrors).toEqual([]);
  expect(body.jsonrpc).toBe("2.0");
  if ("result" in body) {
    const validate = validateResult[method as RpcMethodName];
    if (!validate(body.result)) {
      throw new Error(`${method} result does not match the spec: ${JSON.stringify(validate.errors)}`);
    }
  }
  if (body.error !== undefined) expectSpecError(method, reply.status, body.error);
  return { status: reply.status, body };
}

/** An error must be a cause the spec lists for the method, with its catalogue code and status and valid info. */
function expectSpecError(method: string, status: number, error: any): void {
  const cause = error.cause.name as RpcErrorCauseName;
  const entry = rpcErrorCauses[cause];
  expect(entry, `unknown cause ${cause}`).toBeDefined();
  expect({ name: error.name, code: error.code, status }).toEqual({ name: entry.error, code: entry.code, status: entry.httpStatus });
  if (method in rpcMethodTable) {
    expect(rpcMethodTable[method as RpcMethodName].errorCauses as readonly string[]).toContain(cause);
  }
  const validateInfo = validateErrorInfo[cause];
  if (validateInfo !== null && !validateInfo(error.cause.info)) {
    throw new Error(`${cause} info does not match the spec: ${JSON.stringify(validateInfo.errors)}`);
  }
}

/** The result of a call that must succeed with HTTP 200. */
export async function rpcResult(url: string, method: string, params: unknown): Promise<any> {
  const reply = await rpc(url, method, params);
  if (reply.body.error !== undefined) throw new Error(`${method} failed: ${JSON.stringify(reply.body.error)}`);
  expect(reply.status).toBe(200);
  return reply.body.result;
}

/** The error of a call that must fail, with its HTTP status. */
export async function rpcError(url: string, method: string, params: unknown): Promise<{ status: number; error: any }> {
  const reply = await rpc(url, method, params);
  if (reply.body.error === undefined) throw new Error(`${method} unexpectedly succeeded: ${JSON.stringify(reply.body.result)}`);
  return { status: reply.status, error: reply.body.error };
}
