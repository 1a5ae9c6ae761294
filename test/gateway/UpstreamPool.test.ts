// The upstream pool's choices: round-robin over nodes that are up, a failed node passed over until
// its retry time, the soonest-due node tried when all are down, never a node twice per request.

import { describe, expect, it } from "vitest";
import { UpstreamPool } from "../../src/gateway/UpstreamPool.js";

function pool(count: number) {
  let now = 1_000;
  const urls = Array.from({ length: count }, (_, i) => new URL(`http://node${i}.example:3030/`));
  const upstreams = new UpstreamPool(urls, { retryAfterMs: 5_000, maxSockets: 4, now: () => now });
  return { upstreams, advance: (ms: number) => (now += ms) };
}

const hosts = (picked: ({ url: URL } | undefined)[]) => picked.map((u) => u?.url.hostname);

describe("UpstreamPool", () => {
  it("goes round-robin over the nodes that are up", () => {
    const { upstreams } = pool(3);
    expect(hosts(Array.from({ length: 6 }, () => upstreams.pick()))).toEqual(["node0.example", "node1.example", "node2.example", "node0.example", "node1.example", "node2.example"]);
  });

  it("passes a failed node over until its retry time, then tries it again", () => {
    const { upstreams, advance } = pool(2);
    const [first] = upstreams.upstreams;
    upstreams.markDown(first!, "connection refused");
    expect(hosts(Array.from({ length: 3 }, () => upstreams.pick()))).toEqual(["node1.example", "node1.example", "node1.example"]);
    expect(first!.health()).toEqual({ url: "http://node0.example:3030", up: false, lastError: "connection refused", latencyMs: null, headHeight: null });
    advance(5_000);
    expect(hosts([upstreams.pick(), upstreams.pick()]).sort()).toEqual(["node0.example", "node1.example"]);
    upstreams.markUp(first!, 1.5);
    expect(first!.health()).toMatchObject({ up: true, lastError: "connection refused", latencyMs: 1.5 });
  });

  it("tries the node due soonest when all are down, and never one already tried for the request", () => {
    const { upstreams, advance } = pool(3);
    const [a, b, c] = upstreams.upstreams;
    upstreams.markDown(b!, "x");
    advance(10);
    upstreams.markDown(c!, "y");
    advance(10);
    upstreams.markDown(a!, "z");
    expect(upstreams.pick()?.url.hostname).toBe("node1.example");
    expect(upstreams.pick([b!])?.url.hostname).toBe("node2.example");
    expect(upstreams.pick([a!, b!, c!])).toBeUndefined();
  });

  it("reports the highest head any node reported, and labels nodes by scheme and host only (keys stay out of /status)", async () => {
    const upstreams = new UpstreamPool([new URL("https://user:secret@rpc.example/v1/key?apiKey=k"), new URL("http://[::1]:3030")], { retryAfterMs: 1, maxSockets: 1 });
    expect(upstreams.headHeight()).toBeNull();
    upstreams.upstreams[0]!.headHeight = 7;
    upstreams.upstreams[1]!.headHeight = 9;
    expect(upstreams.headHeight()).toBe(9);
    expect(upstreams.upstreams.map((u) => u.label)).toEqual(["https://rpc.example", "http://[::1]:3030"]);
    expect(upstreams.upstreams[0]!.rpcPath).toBe("/v1/key?apiKey=k");
    expect(upstreams.upstreams[0]!.authorization).toBe(`Basic ${Buffer.from("user:secret").toString("base64")}`);
    expect(upstreams.upstreams[1]!.authorization).toBeUndefined();
    await upstreams.close();
  });
});
