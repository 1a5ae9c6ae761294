// API keys end to end over real HTTP: keys made by `shardkit keys`, one key on the regular RPC,
// the archival RPC and REST; browser keys and origins; rate caps under concurrent load (shared
// by every listener); the public-path cap; preflight; rotation and revocation while the server
// runs; a broken keys file keeps the last good version; keys never in logs or bodies.

import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keysCommand } from "../../../src/cli/keysCommand.js";
import { KEYS_FILE_POLL_MS } from "../../../src/server/http/KeysFileWatcher.js";
import type { Service } from "../../../src/server/startService.js";
import { rawGet } from "../../rest/restClient.js";
import { startTestService } from "../harness.js";

let dir: string;
let keysFile: string;
let service: Service;
const reports: string[] = [];
const issued: string[] = [];

/** Runs `shardkit keys ...` in-process; returns the printed lines (the key is the last). */
function keys(...args: string[]): string[] {
  const lines: string[] = [];
  keysCommand([args[0]!, "--file", keysFile, ...args.slice(1)], { log: (line) => lines.push(line) });
  return lines;
}
const add = (...args: string[]) => {
  const key = keys("add", ...args).at(-1)!;
  issued.push(key);
  return key;
};

let server: string;
let browser: string;
let capped: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "shardkit-keys-http-"));
  keysFile = join(dir, "keys.json");
  server = add("--name", "server");
  browser = add("--name", "web", "--browser", "--origin", "https://app.example.com", "--origin", "*.example.org", "--rate", "1000");
  capped = add("--name", "capped", "--rate", "10");
  service = await startTestService({
    apiPort: 0,
    keysFile,
    onKeysReport: (message) => reports.push(message),
  });
});
afterAll(() => service.close());

const rpcBody = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "health", params: [] });
const rpcPost = (base: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/`, { method: "POST", body: rpcBody, headers: { "content-type": "application/json", ...headers } });
const restGet = (headers: Record<string, string> = {}, query = "") =>
  rawGet(`${service.apiUrl}/v1/account/alice.test.near/full${query}`, { headers });
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** Waits until the server has reported a reload after report number `mark` (the watcher polls). */
const reloadedSince = async (mark: number) => {
  for (let i = 0; i < 100 && reports.length === mark; i++) await new Promise((r) => setTimeout(r, KEYS_FILE_POLL_MS / 2));
  expect(reports.length).toBeGreaterThan(mark);
};

describe("server keys", () => {
  it("the keys file holds only hashes; keys list never shows a key", async () => {
    const text = await readFile(keysFile, "utf8");
    for (const key of issued) expect(text).not.toContain(key);
    expect(text).toContain(`"sha256"`);
    const listed = keys("list").join("\n");
    expect(listed).toMatch(/server {2}server {2}rate unlimited/);
    expect(listed).toMatch(/web {2}browser {2}rate 1000\/min {2}origins https:\/\/app\.example\.com, \*\.example\.org/);
    for (const key of issued) expect(listed).not.toContain(key);
  });

  it("one key works on the regular RPC, the archival RPC and REST, as Bearer or ?apiKey=", async () => {
    expect((await rpcPost(service.rpcUrl, bearer(server))).status).toBe(200);
    expect((await rpcPost(service.archivalUrl, bearer(server))).status).toBe(200);
    expect((await restGet(bearer(server))).status).toBe(200);
    expect((await restGet({}, `?apiKey=${server}`)).status).toBe(200);
  });

  it("refuses an unknown key with 403 text/plain on every listener, without echoing it", async () => {
    for (const reply of [await rpcPost(service.rpcUrl, bearer("nope-key")), await rpcPost(service.archivalUrl, bearer("nope-key")), await restGet(bearer("nope-key"))]) {
      expect(reply.status).toBe(403);
      expect(reply.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(await reply.text()).toBe("Unknown API key");
    }
  });
});

describe("browser keys", () => {
  it("accept exact and wildcard origins (and the Referer), with CORS headers", async () => {
    for (const origin of ["https://app.example.com", "https://shop.example.org", "http://a.b.example.org"]) {
      const reply = await restGet({ ...bearer(browser), origin });
      expect(reply.status, origin).toBe(200);
      expect(reply.headers.get("access-control-allow-origin")).toBe("*");
      expect((await rpcPost(service.rpcUrl, { ...bearer(browser), origin })).status).toBe(200);
    }
    expect((await restGet({ ...bearer(browser), referer: "https://app.example.com/wallet" })).status).toBe(200);
  });

  it("refuse other origins, and requests without one, with 403 {\"error\":\"origin_not_allowed\"}", async () => {
    for (const headers of [{ origin: "https://evil.example.com" }, { origin: "https://example.org" }, {}]) {
      for (const reply of [await restGet({ ...bearer(browser), ...headers }), await rpcPost(service.archivalUrl, { ...bearer(browser), ...headers })]) {
        expect(reply.status).toBe(403);
        expect(reply.headers.get("content-type")).toBe("application/json");
        expect(await reply.json()).toEqual({ error: "origin_not_allowed" });
      }
    }
  });

  it("answers preflight requests on REST and RPC", async () => {
    for (const url of [`${service.apiUrl}/v1/account/alice.test.near/full`, `${service.rpcUrl}/`]) {
      const reply = await fetch(url, {
        method: "OPTIONS",
        headers: { origin: "https://app.example.com", "access-control-request-method": "GET", "access-control-request-headers": "authorization" },
      });
      expect(reply.status).toBe(204);
      expect(reply.headers.get("access-control-allow-origin")).toBe("*");
      expect(reply.headers.get("access-control-allow-headers")).toContain("authorization");
    }
  });
});

describe("rate caps", () => {
  it("let exactly the cap through under concurrent load across all listeners, then 429 with Retry-After and CORS", async () => {
    const headers = { ...bearer(capped), origin: "https://tool.example" };
    const requests = Array.from({ length: 30 }, (_, i) =>
      i % 3 === 0 ? restGet(headers) : rpcPost(i % 3 === 1 ? service.rpcUrl : service.archivalUrl, headers),
    );
    const replies = await Promise.all(requests);
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    const limited = replies.find((r) => r.status === 429)!;
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get("access-control-allow-origin")).toBe("*");
    expect(limited.headers.get("access-control-expose-headers")).toContain("retry-after");
    expect(await limited.json()).toEqual({ error: "rate_limited" });
    // Other keys are not affected.
    expect((await restGet(bearer(server))).status).toBe(200);
  });

  it("hold the public path (no key) to its own cap per client address", async () => {
    const capped = await startTestService({ apiPort: 0, publicRatePerMinute: 5 });
    try {
      const replies = await Promise.all(Array.from({ length: 12 }, () => rawGet(`${capped.apiUrl}/status`)));
      expect(replies.filter((r) => r.status === 200)).toHaveLength(5);
      expect(replies.filter((r) => r.status === 429)).toHaveLength(7);
      expect((await rpcPost(capped.rpcUrl)).status).toBe(429);
    } finally {
      await capped.close();
    }
  });
});

describe("rotation and revocation without a restart", () => {
  it("a rotated key stops working and the new one works; a revoked key stops", async () => {
    let mark = reports.length;
    const temp = add("--name", "temp");
    await reloadedSince(mark);
    expect((await restGet(bearer(temp))).status).toBe(200);
    mark = reports.length;
    const rotated = keys("rotate", "--name", "temp").at(-1)!;
    issued.push(rotated);
    expect(rotated).not.toBe(temp);
    await reloadedSince(mark);
    expect((await restGet(bearer(temp))).status).toBe(403);
    expect((await rpcPost(service.rpcUrl, bearer(rotated))).status).toBe(200);
    mark = reports.length;
    keys("revoke", "--name", "temp");
    await reloadedSince(mark);
    expect((await restGet(bearer(rotated))).status).toBe(403);
  });

  it("keeps serving the last good keys when the file breaks, and picks up the repaired file", async () => {
    const good = await readFile(keysFile, "utf8");
    let mark = reports.length;
    await writeFile(keysFile, `${good.slice(0, 40)} broken`);
    await reloadedSince(mark);
    expect(reports.at(-1)).toMatch(/not valid JSON; still serving the last good version/);
    expect((await restGet(bearer(server))).status).toBe(200);
    mark = reports.length;
    await writeFile(keysFile, good);
    await reloadedSince(mark);
    expect(reports.at(-1)).toMatch(/reloaded: 3 key\(s\)/);
  });

  it("never wrote a key into a report", () => {
    for (const key of issued) for (const report of reports) expect(report).not.toContain(key);
  });
});
