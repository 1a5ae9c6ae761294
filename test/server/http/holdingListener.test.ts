import { createServer, request, type IncomingMessage, type Server } from "node:http";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { HoldingListener } from "../../../src/server/http/HoldingListener.js";

/** POSTs `body` to `url`; resolves with the status and body, or rejects when the connection is cut. */
const post = (url: string, body: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { "content-type": "text/plain" } }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, body: text }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });

/** An unbound listener that echoes each body with its arrival number. */
function echo(): Server {
  let n = 0;
  return createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => res.end(`${++n}:${body}`));
  });
}

let listener: HoldingListener | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

describe("HoldingListener: bound before the service, requests held until it serves", () => {
  it("answers requests that came before serve() once it is called, in arrival order, and later ones directly", async () => {
    listener = await HoldingListener.open("127.0.0.1", 0);
    expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const arrived: IncomingMessage[] = [];
    listener.server.on("request", (req: IncomingMessage) => arrived.push(req));
    const first = post(listener.url, "a");
    await once(listener.server, "request");
    const second = post(listener.url, "b");
    await once(listener.server, "request");
    // Both are in; nothing could answer them yet (there is no service).
    expect(arrived).toHaveLength(2);
    listener.serve(echo());
    expect(await first).toEqual({ status: 200, body: "1:a" });
    expect(await second).toEqual({ status: 200, body: "2:b" });
    expect(await post(listener.url, "c")).toEqual({ status: 200, body: "3:c" });
  });

  it("hands requests to the target's own 'request' listeners (request logs and metrics see them)", async () => {
    listener = await HoldingListener.open("127.0.0.1", 0);
    const target = echo();
    const seen: string[] = [];
    target.on("request", (req: IncomingMessage) => seen.push(`${req.method} ${req.url}`));
    listener.serve(target);
    await post(`${listener.url}/x`, "");
    expect(seen).toEqual(["POST /x"]);
  });

  it("close() before serve() cuts the held requests and frees the port", async () => {
    listener = await HoldingListener.open("127.0.0.1", 0);
    const held = post(listener.url, "a");
    await once(listener.server, "request");
    await listener.close();
    await expect(held).rejects.toThrow(/socket hang up|ECONNRESET/);
    const port = Number(new URL(listener.url).port);
    listener = await HoldingListener.open("127.0.0.1", port);
    expect(listener.url).toBe(`http://127.0.0.1:${port}`);
  });

  it("rejects a port that is taken, as listen does", async () => {
    listener = await HoldingListener.open("127.0.0.1", 0);
    await expect(HoldingListener.open("127.0.0.1", Number(new URL(listener.url).port))).rejects.toMatchObject({ code: "EADDRINUSE" });
  });

  it("serves only once", async () => {
    listener = await HoldingListener.open("127.0.0.1", 0);
    listener.serve(echo());
    expect(() => listener!.serve(echo())).toThrow(/already served/);
  });
});
