import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Service } from "../../src/server/startService.js";
import { startTestService } from "./harness.js";

// A refused request (unknown API key) with an endless streamed body: the listener drains at
// most its bound (4 × maxBodyBytes) and then drops the connection instead of reading on.
const MAX_BODY = 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x61);
const TOTAL = 256 * 1024 * 1024;

/** Streams a chunked POST until the server closes the socket or TOTAL bytes went out. */
function streamRefused(url: string, path: string): Promise<{ sent: number; closedEarly: boolean; head: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let sent = 0;
    let closed = false;
    let head = "";
    socket.on("data", (d) => (head += d.toString("latin1")));
    socket.on("error", () => {});
    socket.on("close", () => {
      closed = true;
      resolve({ sent, closedEarly: sent < TOTAL, head });
    });
    socket.write(`POST ${path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`);
    const pump = () => {
      while (!closed && sent < TOTAL) {
        sent += CHUNK.length;
        socket.write(`${CHUNK.length.toString(16)}\r\n`);
        socket.write(CHUNK);
        if (!socket.write("\r\n")) return void socket.once("drain", pump);
      }
      if (!closed) {
        socket.end("0\r\n\r\n");
        resolve({ sent, closedEarly: false, head });
      }
    };
    pump();
  });
}

describe("bodies of refused requests", () => {
  let service: Service;
  beforeAll(async () => {
    service = await startTestService({ maxBodyBytes: MAX_BODY, apiPort: 0 });
  });
  afterAll(() => service.close());

  it("the RPC listener answers 403 and drops the connection past its drain bound", async () => {
    const result = await streamRefused(service.rpcUrl, "/?apiKey=nope");
    expect(result.head).toMatch(/^HTTP\/1\.1 403 /);
    expect(result.closedEarly).toBe(true);
  });

  it("the REST listener drops a streamed body past its bound", async () => {
    const result = await streamRefused(service.apiUrl!, "/v1/account/alice.near/full?apiKey=nope");
    expect(result.head).toMatch(/^HTTP\/1\.1 403 /);
    expect(result.closedEarly).toBe(true);
  });

  it("a declared oversized body is answered and the connection closed without reading it", async () => {
    const reply = await fetch(`${service.rpcUrl}/?apiKey=nope`, { method: "POST", body: Buffer.alloc(8 * MAX_BODY) });
    expect(reply.status).toBe(403);
    expect(reply.headers.get("connection")).toBe("close");
  });
});
