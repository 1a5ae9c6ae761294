import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Service } from "../../src/server/startService.js";
import { startTestService } from "./harness.js";

let service: Service;
beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), "shardkit-keys-"));
  const keysFile = join(dir, "keys.json");
  await writeFile(keysFile, JSON.stringify({ keys: [{ key: "good-key-1", name: "ci" }] }));
  service = await startTestService({ keysFile });
});
afterAll(() => service.close());

const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "health", params: [] });

async function call(path: string, headers: Record<string, string> = {}) {
  const reply = await fetch(`${service.rpcUrl}${path}`, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
  return { status: reply.status, type: reply.headers.get("content-type"), text: await reply.text() };
}

describe("API keys", () => {
  it("serves requests without a key on the public path", async () => {
    expect((await call("/")).status).toBe(200);
  });

  it("accepts a known key as a Bearer header or an apiKey query parameter", async () => {
    expect(await call("/", { authorization: "Bearer good-key-1" })).toMatchObject({ status: 200, text: '{"jsonrpc":"2.0","result":null,"id":1}' });
    expect(await call("/?apiKey=good-key-1")).toMatchObject({ status: 200 });
  });

  it.each([
    ["an unknown Bearer key", "/", { authorization: "Bearer nope" }],
    ["an unknown apiKey parameter", "/?apiKey=nope", {}],
    ["a non-Bearer authorization header", "/", { authorization: "Basic Z29vZC1rZXktMQ==" }],
  ])("refuses %s with 403 text/plain", async (_name, path, headers) => {
    const reply = await call(path, headers);
    expect(reply).toEqual({ status: 403, type: "text/plain; charset=utf-8", text: "Unknown API key" });
  });

  it("refuses unknown keys on the archival listener too", async () => {
    const reply = await fetch(`${service.archivalUrl}/?apiKey=nope`, { method: "POST", body });
    expect(reply.status).toBe(403);
  });
});
